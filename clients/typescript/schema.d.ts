// Generated from the OpenAPI document by `npm run client:generate`; do not edit.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: PostgreSQL and Temporal answer (503 when either does not) */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description On the API port only without METRICS_PORT, and in production only with METRICS_TOKEN (then as `Authorization: Bearer <METRICS_TOKEN>`).
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tenants, newest first */
        get: operations["getAdminTenants"];
        put?: never;
        /** Create a tenant */
        post: operations["postAdminTenants"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant with its quota usage */
        get: operations["getAdminTenantsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users, newest first */
        get: operations["getAdminUsers"];
        put?: never;
        /** Create a user */
        post: operations["postAdminUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user */
        get: operations["getAdminUsersById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's API tokens, newest first (never their secrets) */
        get: operations["getAdminUsersByIdTokens"];
        put?: never;
        /** Issue an API token for a user (shown once) */
        post: operations["postAdminUsersByIdTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/tokens/{tokenId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an API token (it answers 401 from now on; revoking again changes nothing) */
        post: operations["postAdminUsersByIdTokensByTokenIdRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a user: every token of theirs answers 401 at once (administrators cannot disable themselves) */
        post: operations["postAdminUsersByIdDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled user: their tokens that are neither revoked nor expired work again */
        post: operations["postAdminUsersByIdEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's sessions, newest first */
        get: operations["getSessions"];
        put?: never;
        /**
         * Sign in with email and password
         * @description Sets the HttpOnly, SameSite=Strict session cookie (over an https PUBLIC_URL `Secure` and named `__Host-pvecp_session`) and answers the CSRF token. Failed sign-ins lock the account (LOGIN_MAX_FAILURES_PER_ACCOUNT) and the address, an IPv4 address or an IPv6 /64 (LOGIN_MAX_FAILURES_PER_ADDRESS), for LOGIN_LOCKOUT_MINUTES: 429 SIGN_IN_LOCKED with Retry-After. Wrong current passwords of a password change and wrong invite links count as failed sign-ins. When every password hashing slot is taken, 503 SERVICE_BUSY with Retry-After.
         */
        post: operations["postSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user, this session and its CSRF token */
        get: operations["getSessionsCurrent"];
        put?: never;
        post?: never;
        /** Sign out: the session ends and its cookie is cleared */
        delete: operations["deleteSessionsCurrent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of the caller's sessions (its next request answers 401; ending it again changes nothing) */
        delete: operations["deleteSessionsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation: set your password (the link works once)
         * @description A tenant owner’s invitation makes the user, in its tenant with its role; an administrator’s invite sets an existing user’s first password. Then sign in with `POST /v1/sessions`. An unknown, used, expired or revoked link is one answer, 410 INVITE_INVALID. The link is checked before the password is hashed. A wrong link counts as a failed sign-in of the address (an IPv4 address or an IPv6 /64): once LOGIN_MAX_FAILURES_PER_ADDRESS fall within LOGIN_LOCKOUT_MINUTES, 429 SIGN_IN_LOCKED with Retry-After.
         */
        post: operations["postInvitationsAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invites/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The same as `POST /v1/invitations/accept` (kept for earlier invite pages)
         * @description A tenant owner’s invitation makes the user, in its tenant with its role; an administrator’s invite sets an existing user’s first password. Then sign in with `POST /v1/sessions`. An unknown, used, expired or revoked link is one answer, 410 INVITE_INVALID. The link is checked before the password is hashed. A wrong link counts as a failed sign-in of the address (an IPv4 address or an IPv6 /64): once LOGIN_MAX_FAILURES_PER_ADDRESS fall within LOGIN_LOCKOUT_MINUTES, 429 SIGN_IN_LOCKED with Retry-After.
         */
        post: operations["postInvitesAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who you are, and your tenant’s quota and usage */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your own password (your other sessions end)
         * @description A wrong `currentPassword` (400, `details.fields.currentPassword`) counts as a failed sign-in of the account and the address: once the lockout holds, 429 SIGN_IN_LOCKED with Retry-After, without checking the password.
         */
        post: operations["postAccountPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your API tokens, newest first (never their secrets) */
        get: operations["getAccountTokens"];
        put?: never;
        /** Issue yourself an API token (shown once) */
        post: operations["postAccountTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/tokens/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke one of your API tokens (revoking again changes nothing) */
        post: operations["postAccountTokensByIdRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite a user: a one-time link that sets their first password (INVITE_TTL_HOURS) */
        post: operations["postAdminUsersByIdInvites"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a user's password (for scripted setups); their sessions end */
        post: operations["postAdminUsersByIdPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List plans, newest first */
        get: operations["getAdminPlans"];
        put?: never;
        /** Create a plan */
        post: operations["postAdminPlans"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List images, newest first */
        get: operations["getAdminImages"];
        put?: never;
        /** Create a image */
        post: operations["postAdminImages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Proxmox VE connections, newest first */
        get: operations["getAdminConnections"];
        put?: never;
        /** Create a Proxmox VE connection */
        post: operations["postAdminConnections"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List locations, newest first */
        get: operations["getAdminLocations"];
        put?: never;
        /** Create a location */
        post: operations["postAdminLocations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/ip-pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List IP pools, newest first */
        get: operations["getAdminIpPools"];
        put?: never;
        /** Create a IP pool */
        post: operations["postAdminIpPools"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update or archive a plan; audited */
        patch: operations["patchAdminPlansById"];
        trace?: never;
    };
    "/v1/admin/images/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an image from a URL: its templates and downloaded files are removed; audited
         * @description The image is archived (servers made from it keep it; new creates refuse it) and its templates leave the catalog at once; the templates and downloaded files we made for it (proven by our marker) are then removed on every node. Refused with 409 IMAGE_CLONE_IN_FLIGHT while a server is being created or rebuilt from it; 409 INVALID_STATE for an image of hand-made templates (archive it instead).
         */
        delete: operations["deleteAdminImagesById"];
        options?: never;
        head?: never;
        /** Update or archive a image; audited */
        patch: operations["patchAdminImagesById"];
        trace?: never;
    };
    "/v1/admin/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Proxmox VE connection with its health, read live from the cluster
         * @description The connection as listed, with `health`: whether Proxmox VE answers the connection's token, the minimal role on each path (held and missing) and the cluster's firewall switch, each read waiting 3 s at most. A cluster in trouble is reported in `health` (200 with `reachable: false`), never as an error of this request.
         */
        get: operations["getAdminConnectionsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update or archive a Proxmox VE connection; audited */
        patch: operations["patchAdminConnectionsById"];
        trace?: never;
    };
    "/v1/admin/locations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update or archive a location; audited */
        patch: operations["patchAdminLocationsById"];
        trace?: never;
    };
    "/v1/admin/ip-pools/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update or archive a IP pool; audited */
        patch: operations["patchAdminIpPoolsById"];
        trace?: never;
    };
    "/v1/admin/images/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Build a new version of an image from a URL when its checksum changed; audited
         * @description A checksum other than the newest version's adds a version, built on every node beside the old one (`builds`); creates and rebuilds use the newest version ready on their node, and an old template is destroyed once no provision or rebuild in flight still clones it. The same checksum changes nothing (`meta.refreshed: false`). 409 INVALID_STATE for an image of hand-made templates.
         */
        post: operations["postAdminImagesByIdRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/connections/{id}/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a node of the cluster to the connection; audited
         * @description The node must be a member of the cluster, as GET /cluster/status answers the connection's token (400 otherwise, 422 CONNECTION_PRIVILEGES_MISSING when the token may not read it, 503 when Proxmox VE cannot be reached).
         */
        post: operations["postAdminConnectionsByIdNodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/connections/{id}/nodes/{node}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a node from the connection; audited
         * @description Refused with 409 NODE_IN_USE while servers live on the node or migrate to it: drain it (`draining: true`) and migrate them first. Its image templates go with it.
         */
        delete: operations["deleteAdminConnectionsByIdNodesByNode"];
        options?: never;
        head?: never;
        /** A node's capacity, enabled and draining flags; audited */
        patch: operations["patchAdminConnectionsByIdNodesByNode"];
        trace?: never;
    };
    "/v1/admin/connections/{id}/vmid-range": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Move a connection's VMID range; audited
         * @description Growing is always possible (unless another connection to the cluster uses those VMIDs: 409 CONNECTION_OVERLAP); shrinking only over VMIDs that are free (409 VMID_RANGE_IN_USE names the held ones).
         */
        put: operations["putAdminConnectionsByIdVmidRange"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plans to choose from */
        get: operations["getPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Locations to choose from */
        get: operations["getLocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Images to choose from */
        get: operations["getImages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List servers, newest first */
        get: operations["getInstances"];
        put?: never;
        /**
         * Create a server
         * @description Commits every reservation, then starts provisioning. Replays of an Idempotency-Key answer 200 with the same server; a key is kept for IDEMPOTENCY_KEY_TTL_HOURS (24 h) and forgotten when the create answers 503. With `backupId` instead of `imageId` the new server is restored from one of your backups (404 NOT_FOUND for a backup you do not have): it is reserved and built like any other server, its disk written from the backup's archive instead of an image, in the backup's location, beside the server the backup was made of, which is not touched. It gets its own addresses, login and name, keeps the original's image, and reports `instance.restored` (`data.backupId`) when it runs; a failed restore rolls back like a failed create, and the backup stays.
         */
        post: operations["postInstances"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a server */
        get: operations["getInstancesById"];
        put?: never;
        post?: never;
        /**
         * Delete a server
         * @description Idempotent. Stops and destroys the guest, then releases its ID, addresses, capacity and quota; the server stays readable as `deleted`. A server still being created is cancelled. Deleting a deleted server answers 200 with it and its last task; one being deleted answers 202 with the running task. Its backups are deleted too unless `?keepBackups=true` (protected and external backups are always kept).
         */
        delete: operations["deleteInstancesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream the current task's steps (server-sent events)
         * @description Each step is an event whose `id` is its sequence and whose data is `{ step, status, message }`; send `Last-Event-ID` to resume after the last step seen. Ends with `event: close`, data `{ reason }`: `task_ended` (with the task's `status`), `parked` (the server waits for an operator), `max_duration` (EVENT_STREAM_MAX_SECONDS), `shutting_down` or `access_lost` (the caller may no longer read the server, e.g. its grant was revoked); after `max_duration` and `shutting_down`, reconnect with Last-Event-ID. `: ping` comments keep it alive. At most EVENT_STREAMS_PER_TOKEN streams per token are open at once (429 RATE_LIMITED beyond).
         */
        get: operations["getInstancesByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/credentials/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reveal the login credential, once
         * @description Only while the server is running or stopped (otherwise 409 INVALID_STATE, e.g. during a rebuild), within the reveal window.
         */
        post: operations["postInstancesByIdCredentialsReveal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a server with its provider coordinates */
        get: operations["getAdminInstancesById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}/rollback/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Update retryRollback: try removing the guest again (409 INVALID_STATE unless parked) */
        post: operations["postAdminInstancesByIdRollbackRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}/rollback/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Update resolveRollback: the guest was removed by hand; release everything (409 INVALID_STATE unless parked) */
        post: operations["postAdminInstancesByIdRollbackResolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quarantined-vmids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List VMIDs of our ranges that hold guests we did not create */
        get: operations["getAdminQuarantinedVmids"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quarantined-vmids/{id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Return a quarantined VMID to circulation (its stranger is gone or was moved) */
        post: operations["postAdminQuarantinedVmidsByIdRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orphans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List guests that carry our ownership marker but have no live server, newest first */
        get: operations["getAdminOrphans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orphans/{id}/destroy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop and destroy an orphan guest, confirmed against Proxmox (only while it still carries the same marker and has no live server) */
        post: operations["postAdminOrphansByIdDestroy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orphans/{id}/forget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Leave an orphan guest alone: the record closes and the reconciler does not list that guest again */
        post: operations["postAdminOrphansByIdForget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List every tenant’s servers, newest first, by status, tenant, connection or node */
        get: operations["getAdminInstances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reconcile one server with Proxmox now (power changed outside, guest lost or found again, a start never confirmed, its firewall changed outside) */
        post: operations["postAdminInstancesByIdReconcile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What happened to the caller's servers, newest first (admins: every tenant's) */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Power a stopped server on */
        post: operations["postInstancesByIdStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Power a running server off (forced) */
        post: operations["postInstancesByIdStop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/shutdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Shut a running server down (ACPI; forced stop after the timeout) */
        post: operations["postInstancesByIdShutdown"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/reboot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restart a running server */
        post: operations["postInstancesByIdReboot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/resize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a stopped server to another plan
         * @description CPU and memory follow the plan; the disk only grows. Growth is charged to the project's and the tenant's quota and the host first; what shrinks is refunded when the resize is done. The plan must be one the server's project allows.
         */
        post: operations["postInstancesByIdResize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/rebuild": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the disk with a fresh one from an image
         * @description Keeps the name, addresses and host; the old disk and credential are destroyed and a new credential is made (reveal it once). Defaults to the current image (another image must be one the server's project allows), and to the SSH keys the server has unless `sshKeys` or `sshKeyIds` name new ones.
         */
        post: operations["postInstancesByIdRebuild"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/iso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mount an ISO in the CD-ROM drive
         * @description An ISO of `GET /v1/isos` that is ready on the server's host: another tenant's, another location's or node's, or one still downloading is 422 ISO_NOT_AVAILABLE with nothing changed. The drive changes at once, on a running server too; it boots from it after `boot-order` `{first: "cdrom"}` and a reboot.
         */
        post: operations["postInstancesByIdIso"];
        /**
         * Eject the ISO from the CD-ROM drive
         * @description At once, on a running server too; with the CD-ROM first, the next boot goes on to the disk.
         */
        delete: operations["deleteInstancesByIdIso"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/boot-order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose what the server boots from first
         * @description Pending until the next start or reboot (Proxmox VE applies a running guest's boot order when it restarts). The CD-ROM first needs an ISO mounted (409 INVALID_STATE).
         */
        post: operations["postInstancesByIdBootOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/rescue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Boot the server into the rescue system
         * @description Mounts the location's rescue ISO first in the boot order, hands a fresh rescue password to it (reveal it once with `POST …/rescue/reveal`) and reboots (a stopped server is started). The disk stays attached. The server shows `rescue` while it runs in it; power operations keep working; resize, rebuild, restore, rollback, migrate and ISO or boot-order changes answer 409 IN_RESCUE until `DELETE …/rescue`.
         */
        post: operations["postInstancesByIdRescue"];
        /**
         * Leave rescue mode
         * @description Ejects the rescue system, puts the disk first and reboots into it (a stopped server stays stopped). The rescue password stops being revealable.
         */
        delete: operations["deleteInstancesByIdRescue"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}/migrate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a server to another node of its cluster
         * @description Online when it runs, offline when stopped. Capacity is reserved on the target first and released on the source once the guest has moved.
         */
        post: operations["postAdminInstancesByIdMigrate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a server's snapshots, oldest first */
        get: operations["getInstancesByIdSnapshots"];
        put?: never;
        /**
         * Take a snapshot of a server
         * @description Counts against the plan's `snapshotLimit` (0: none). Refused before anything is asked of Proxmox VE when the limit is reached (422 SNAPSHOT_LIMIT_REACHED) or the location's storage cannot snapshot (422 SNAPSHOTS_UNSUPPORTED). The server shows `snapshotting` until the task ends.
         */
        post: operations["postInstancesByIdSnapshots"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/snapshots/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a snapshot */
        get: operations["getInstancesByIdSnapshotsByName"];
        put?: never;
        post?: never;
        /** Delete a snapshot */
        delete: operations["deleteInstancesByIdSnapshotsByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/snapshots/{name}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll a server back to a snapshot
         * @description An operation of the server (status `rolling_back`, its own task, step thread and events): a running server is stopped first and started again after, unless the snapshot holds its RAM (it then resumes where it was). Everything written after the snapshot is lost.
         */
        post: operations["postInstancesByIdSnapshotsByNameRollback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/firewall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A server's inbound firewall rules
         * @description Answers with an `ETag` header: send it back as `If-Match` with a change. A server whose firewall was never set lets every inbound connection in (revision `0`).
         */
        get: operations["getInstancesByIdFirewall"];
        /**
         * Replace a server's inbound firewall rules
         * @description The list is replaced as a whole and applied to the server as its `firewall` operation (status `updating_firewall`, its own task, step thread and events; `instance.firewall_updated` when done). Checked before anything is written: sources are IP addresses or CIDRs, ports `443` or `8000-8100` (tcp and udp only), at most 64 rules with the groups' rules counted in (422 FIREWALL_RULE_LIMIT), every group the tenant's. With `If-Match`, a firewall changed since that `ETag` answers 412 PRECONDITION_FAILED. Outbound traffic stays open; the server's address anti-spoofing is not part of these rules.
         */
        put: operations["putInstancesByIdFirewall"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/firewall-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's firewall groups, newest first */
        get: operations["getFirewallGroups"];
        put?: never;
        /**
         * Create a firewall group: named inbound rules that servers list among their own
         * @description A server's rules name a group as `{"group": "<id>"}`; its rules then stand in that place. At most 64 rules.
         */
        post: operations["postFirewallGroups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/firewall-groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A firewall group, with the servers that name it and how applying it to each went */
        get: operations["getFirewallGroupsById"];
        put?: never;
        post?: never;
        /** Delete a firewall group no server names */
        delete: operations["deleteFirewallGroupsById"];
        options?: never;
        head?: never;
        /**
         * Change a firewall group; new rules are applied again to every server that names it
         * @description New rules are applied to each server that names the group as that server's `firewall` operation, a few servers at a time; `servers[].application` shows how each went (`pending` until its apply ends). A server busy with another operation is applied once it is free. Refused with 422 FIREWALL_RULE_LIMIT when a server would pass 64 rules.
         */
        patch: operations["patchFirewallGroupsById"];
        trace?: never;
    };
    "/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The projects you may see, newest first (a member: the default project and those they have a role in) */
        get: operations["getProjects"];
        put?: never;
        /**
         * Create a project: a group of servers with its own members, restrictions and quota (tenant owners)
         * @description Every server belongs to one project of its tenant. A project may restrict the plans, images and locations its servers use and carry its own quota inside the tenant's; both are checked in every create in it.
         */
        post: operations["postProjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project, with its members and what its servers hold */
        get: operations["getProjectsById"];
        put?: never;
        post?: never;
        /** Delete a project without servers (tenant owners); never the default one */
        delete: operations["deleteProjectsById"];
        options?: never;
        head?: never;
        /**
         * Change a project's name, restrictions or quota (tenant owners)
         * @description New restrictions and a new quota hold for the next create; servers already in the project stay.
         */
        patch: operations["patchProjectsById"];
        trace?: never;
    };
    "/v1/projects/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Give a user of the tenant a role in the project, or change it (tenant owners) */
        put: operations["putProjectsByIdMembersByUserId"];
        post?: never;
        /** Take a user's role in the project away (tenant owners) */
        delete: operations["deleteProjectsByIdMembersByUserId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a server's backups, newest first */
        get: operations["getInstancesByIdBackups"];
        put?: never;
        /**
         * Back a server up
         * @description A vzdump archive of the whole server on its location's backup storage, made while it keeps running (snapshot mode). Counts against the plan's `backupLimit` (0: none; 422 BACKUP_LIMIT_REACHED) and needs a location with a backup storage (422 BACKUPS_UNSUPPORTED), both checked before anything is asked of Proxmox VE. One backup runs per host at a time: the server shows `backing_up` while it waits and while it is written, and answers other operations with 409 BACKUP_IN_PROGRESS meanwhile.
         */
        post: operations["postInstancesByIdBackups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a backup */
        get: operations["getBackupsById"];
        put?: never;
        post?: never;
        /**
         * Delete a backup
         * @description Removes the archive from the backup storage (202, with the task that does it: the server's, or for a backup kept after its server was deleted, a task of its own). A lost backup's archive is removed too should Proxmox VE still have it. A backup without an archive (failed, or lost before it was written) is forgotten at once (200). Customers cannot delete protected backups (409 BACKUP_PROTECTED); a backup a new server is being restored from cannot be deleted until that restore ends (409 BACKUP_IN_USE).
         */
        delete: operations["deleteBackupsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a server from its backup, in place
         * @description An operation of the server (status `restoring`): it is stopped, the archive is written over it, its size and network are applied again and it is started if it ran. It keeps its addresses and login; everything written after the backup is lost. The backup stays. A server that moved to a host that cannot read the archive (a storage local to its old host) is refused before anything changes (409 BACKUP_NOT_ON_HOST): restore the backup as a new server instead.
         */
        post: operations["postBackupsByIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/backup-schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a server's backup schedule */
        get: operations["getInstancesByIdBackupSchedule"];
        /**
         * Set a server's backup schedule
         * @description Backs the server up daily or weekly at a time of day in a time zone, as a Temporal Schedule (`backup-schedule-<server id>`). Each run is a backup like POST /v1/instances/{id}/backups; a run refused (plan limit reached, server busy) is recorded in `lastRefusal` and the next run comes as planned. At most one backup is made per local day (daily) or local week, Monday to Sunday (weekly). On the days the clocks change, a time the change skips runs at the change itself (02:30 in Europe/Berlin at 03:00 CEST), and a time that happens twice runs once, at its first occurrence. A time zone outside the IANA time zone database (an abbreviation such as PST) is 400 INVALID_INPUT. After a successful scheduled backup the oldest scheduled backups beyond `keepLast` are deleted; manual and protected backups are never pruned. `keepLast` may not exceed the plan's `backupLimit` (422 BACKUP_LIMIT_REACHED). Deleting the server removes its schedule. Changes of one schedule are made one at a time: a PUT or DELETE while another is still being made answers 409 CONFLICT (send it again).
         */
        put: operations["putInstancesByIdBackupSchedule"];
        post?: never;
        /**
         * Remove a server's backup schedule
         * @description No more scheduled backups; the backups it made stay. Answers the schedule removed, or 204 when the server has none (a delete is done either way, so a repeated or racing delete is not an error). A change of the same schedule still being made answers 409 CONFLICT.
         */
        delete: operations["deleteInstancesByIdBackupSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/isos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the ISOs you may mount
         * @description Public ISOs and your tenant’s own, with the locations they are ready in; `instanceId` narrows it to what that server may mount. Rescue systems are not listed (rescue mode mounts them).
         */
        get: operations["getIsos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/rescue/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reveal the rescue password, once
         * @description The password of the rescue system (user `root`) made by the last rescue entry; only while the server is in rescue mode (409 INVALID_STATE otherwise).
         */
        post: operations["postInstancesByIdRescueReveal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/isos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the ISO library, newest first */
        get: operations["getAdminIsos"];
        put?: never;
        /**
         * Add an ISO to the library
         * @description Downloaded by Proxmox VE (download-url, content `iso`, the checksum checked) into every location's ISO storage: once on a shared storage, once per node on a local one. Each copy is `importing`, then `ready` or `failed` with a cause.
         */
        post: operations["postAdminIsos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/isos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an ISO with its state per location and node */
        get: operations["getAdminIsosById"];
        put?: never;
        post?: never;
        /**
         * Delete an ISO from the library and its storages
         * @description Refused (409 CONFLICT) while servers have it mounted.
         */
        delete: operations["deleteAdminIsosById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/isos/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Download failed copies again, and to locations or nodes added since */
        post: operations["postAdminIsosByIdRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a server's usage graphs
         * @description CPU, memory, network and disk I/O over the last hour, day or week, as Proxmox VE consolidates them (averages per point). Answers are kept a few seconds per server and time frame (`METRICS_CACHE_SECONDS`), so many viewers cost one read. Values are null where nothing was measured (the server was stopped), and for every point whose interval begins before the server was created (Proxmox VE may still hold the usage of an earlier server there; only the history of this server is shown).
         */
        get: operations["getInstancesByIdMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/traffic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a server's traffic in a billing period
         * @description Bytes received and sent, what counts against the plan's allowance, the percent used, the throttle if one holds, and a day-by-day series. Counted from Proxmox VE's counters every `TRAFFIC_SAMPLE_SECONDS`: what moved since `sampledAt` is not in yet.
         */
        get: operations["getInstancesByIdTraffic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}/traffic/lift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a server's throttle for the rest of its billing period
         * @description The throttle is removed (`instance.unthrottled`) and does not come back this period; audited. The next period counts afresh.
         */
        post: operations["postAdminInstancesByIdTrafficLift"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/instances/{id}/traffic/allowance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add allowance to a server's current billing period
         * @description Audited. Back under 100%, a throttle is removed; a threshold no longer reached is sent again when it is reached again.
         */
        post: operations["postAdminInstancesByIdTrafficAllowance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage records of every tenant (or one), for billing
         * @description One record per server per UTC hour of its life in the range (a resize within an hour splits it into two parts at that moment). JSON pages are in server and hour order, `meta.nextCursor` while more remain; `Accept: text/csv` (or `format=csv`) answers every record of the range as CSV with the same columns, in the same order (header: `hour,part,instanceId,tenantId,hostname,planId,planName,seconds,state,addresses,inBytes,outBytes,backupBytes,snapshotCount,open`). Bytes are exact integers. Records of hours the sampler has not closed yet are `open`; the others never change.
         */
        get: operations["getAdminUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your tenant's usage records, for billing
         * @description One record per server per UTC hour of its life in the range (a resize within an hour splits it into two parts at that moment). JSON pages are in server and hour order, `meta.nextCursor` while more remain; `Accept: text/csv` (or `format=csv`) answers every record of the range as CSV with the same columns, in the same order (header: `hour,part,instanceId,tenantId,hostname,planId,planName,seconds,state,addresses,inBytes,outBytes,backupBytes,snapshotCount,open`). Bytes are exact integers. Records of hours the sampler has not closed yet are `open`; the others never change.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a server's screen or serial console
         * @description Answers a one-time ticket (single use, valid 30 s at most, bound to the server, the caller and the type) as a page URL and a WebSocket URL of this API; nothing of Proxmox VE reaches the client. Refused when the server is not running (409 INSTANCE_NOT_RUNNING), busy with an operation that replaces or moves its guest (409 INSTANCE_BUSY), has no screen (422 CONSOLE_TYPE_UNAVAILABLE: use `serial`), its cluster cannot give API tokens a serial console (422 CONSOLE_UNSUPPORTED), or the caller holds CONSOLE_SESSIONS_PER_USER consoles already (429 CONSOLE_LIMIT).
         */
        post: operations["postInstancesByIdConsole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a task and its step thread */
        get: operations["getTasksById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a task with why it failed in the provider's words */
        get: operations["getAdminTasksById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's endpoints, newest first (admins: every endpoint) */
        get: operations["getWebhooks"];
        put?: never;
        /** Register an endpoint for the caller's instance events (admins: every tenant's, or one tenant's); the answer shows its signing secret, once */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint, with its status and why it was disabled */
        get: operations["getWebhooksById"];
        put?: never;
        post?: never;
        /** Remove an endpoint and its deliveries */
        delete: operations["deleteWebhooksById"];
        options?: never;
        head?: never;
        /** Enable or disable an endpoint, or change the event types it receives */
        patch: operations["patchWebhooksById"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An endpoint's deliveries, newest first: status, attempts, last response, next attempt */
        get: operations["getWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivered or failed delivery again, with a fresh retry window */
        post: operations["postWebhooksByIdDeliveriesByDeliveryIdRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ssh-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your SSH public keys, newest first */
        get: operations["getSshKeys"];
        put?: never;
        /**
         * Save an SSH public key on your account
         * @description The key is parsed and fingerprinted (SHA256). Not one public key line (garbage, a private key, several keys) is 400 SSH_KEY_INVALID; DSA, RSA under 2048 bits and security-key types are 422 SSH_KEY_TYPE_NOT_ALLOWED; a key your account holds already is 409 SSH_KEY_EXISTS. Name it by id in `sshKeyIds` when you create or rebuild a server.
         */
        post: operations["postSshKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ssh-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of your SSH keys (servers built with it keep it) */
        delete: operations["deleteSshKeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The users of your tenant, newest first (owners and members) */
        get: operations["getUsers"];
        put?: never;
        /**
         * Add a user to your tenant (tenant owners)
         * @description The user has no password yet: an invite link (`POST /v1/admin/users/{id}/invites`) or an administrator sets one.
         */
        post: operations["postUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user's role, or disable or enable them (tenant owners; never themselves)
         * @description A user made a viewer keeps only `read` of the servers shared with them. Disabling ends their sessions and stops their tokens.
         */
        patch: operations["patchUsersById"];
        trace?: never;
    };
    "/v1/instances/{id}/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who a server is shared with, and what they may do */
        get: operations["getInstancesByIdGrants"];
        put?: never;
        /**
         * Share a server with a user of its tenant
         * @description Its creator or a tenant owner names what the user may do; a grant given again is replaced. Narrowing or revoking it ends what it no longer allows, including the user's open consoles and event streams of the server.
         */
        post: operations["postInstancesByIdGrants"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/instances/{id}/grants/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Stop sharing a server with a user: their open consoles and event streams of it end */
        delete: operations["deleteInstancesByIdGrantsByUserId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your tenant's invitations, newest first, with their status (never their links) */
        get: operations["getInvitations"];
        put?: never;
        /**
         * Invite someone into your tenant with a role (tenant owners): a one-time link, shown once
         * @description The link opens the console’s page that sets a password (`POST /v1/invitations/accept`), which makes the user. No mail is sent: a `user.invited` webhook (see the webhook events) carries the link to whatever mails it.
         */
        post: operations["postInvitations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation: its link stops working */
        delete: operations["deleteInvitationsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your tenant's audit trail, newest first (tenant owners; admins: every tenant's) */
        get: operations["getAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    instanceEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What a registered endpoint receives: one instance event per POST, at least once, in event order per instance
         * @description Verify `Pvecp-Signature` (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the endpoint secret), deduplicate by `Pvecp-Event-Id`, answer 2xx. Anything else, or no answer within 10 s, is retried with doubling delays.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    "Pvecp-Signature": string;
                    "Pvecp-Event-Id": string;
                    "Pvecp-Event-Type": string;
                    "Pvecp-Delivery-Id": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["InstanceEvent"];
                };
            };
            responses: {
                /** @description Any 2xx: delivered. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        InstanceEvent: {
            id: string;
            /** @enum {string} */
            type: "instance.created" | "instance.scheduled" | "instance.running" | "instance.stopping" | "instance.stopped" | "instance.starting" | "instance.rebooting" | "instance.resizing" | "instance.resized" | "instance.rebuilding" | "instance.rebuilt" | "instance.migrating" | "instance.migrated" | "instance.deleting" | "instance.deleted" | "instance.failed" | "instance.lost" | "instance.changed_outside" | "instance.firewall_restored" | "instance.snapshotting" | "instance.rolling_back" | "instance.rolled_back" | "instance.backing_up" | "instance.restoring" | "instance.restored" | "instance.traffic_threshold" | "instance.throttled" | "instance.unthrottled" | "instance.updating_network" | "instance.updating_firewall" | "instance.firewall_updated" | "instance.boot_changing" | "instance.boot_changed" | "instance.rescue_entering" | "instance.rescue_entered" | "instance.rescue_leaving" | "instance.rescue_left" | "snapshot.created" | "snapshot.deleted" | "backup.created" | "backup.failed" | "backup.deleted" | "backup.lost" | "backup.found" | "user.invited" | "user.joined";
            instanceId: string;
            tenantId: string;
            data: {
                status: string;
                hostname?: string;
                code?: string;
                operation?: string;
                previousStatus?: string;
                /** @description Traffic events: the billing period's figures (bytes are exact integers). */
                traffic?: {
                    threshold?: number;
                    periodStart: string;
                    periodEnd: string;
                    countedBytes: number;
                    allowanceBytes: number | null;
                    percent: number | null;
                    throttleMbps?: number;
                };
            };
            createdAt: string;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "INVALID_INPUT" | "UNAUTHENTICATED" | "FORBIDDEN" | "CSRF_TOKEN_INVALID" | "NOT_FOUND" | "CONFLICT" | "INVALID_STATE" | "OPERATION_IN_PROGRESS" | "CONNECTION_OVERLAP" | "CONNECTION_PRIVILEGES_MISSING" | "NODE_IN_USE" | "VMID_RANGE_IN_USE" | "BACKUP_IN_PROGRESS" | "BACKUP_PROTECTED" | "BACKUP_NOT_ON_HOST" | "BACKUP_IN_USE" | "BACKUP_NOT_RESTORABLE" | "SSH_KEY_INVALID" | "SSH_KEY_TYPE_NOT_ALLOWED" | "SSH_KEY_EXISTS" | "CREDENTIAL_ALREADY_REVEALED" | "CREDENTIAL_EXPIRED" | "INVITE_INVALID" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "QUOTA_EXCEEDED" | "IMAGE_SSH_KEY_REQUIRED" | "IMAGE_LOGIN_METHOD_UNSUPPORTED" | "UNSUPPORTED" | "ARCHIVED" | "USER_DATA_UNSUPPORTED" | "SNIPPETS_NOT_VISIBLE" | "IMAGE_STORAGE_REFUSED" | "IMAGE_CHECKSUM_NOT_LISTED" | "IMAGE_CHECKSUM_URL_UNREACHABLE" | "IMAGE_CHECKSUM_URL_REFUSED" | "IMAGE_CLONE_IN_FLIGHT" | "SNAPSHOT_LIMIT_REACHED" | "SNAPSHOTS_UNSUPPORTED" | "BACKUP_LIMIT_REACHED" | "BACKUPS_UNSUPPORTED" | "INSTANCE_NOT_RUNNING" | "INSTANCE_BUSY" | "CONSOLE_TYPE_UNAVAILABLE" | "CONSOLE_UNSUPPORTED" | "IN_RESCUE" | "ISO_NOT_AVAILABLE" | "RESCUE_UNAVAILABLE" | "PLAN_DISK_TOO_SMALL" | "FIREWALL_RULE_LIMIT" | "FIREWALL_GROUP_IN_USE" | "PROJECT_QUOTA_EXCEEDED" | "PROJECT_PLAN_NOT_ALLOWED" | "PROJECT_IMAGE_NOT_ALLOWED" | "PROJECT_LOCATION_NOT_ALLOWED" | "PROJECT_IN_USE" | "PROJECT_IS_DEFAULT" | "RATE_LIMITED" | "CONSOLE_LIMIT" | "PROVIDER_PERMISSION_DENIED" | "SIGN_IN_LOCKED" | "CAPACITY_UNAVAILABLE" | "PROVIDER_UNAVAILABLE" | "SERVICE_BUSY" | "SERVICE_UNAVAILABLE" | "INTERNAL";
                /** @description Safe to show to the caller. */
                message: string;
                /** @description Machine-readable context, e.g. `fields` (field path → problem) for INVALID_INPUT. */
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not_ready";
            checks: {
                /** @enum {string} */
                database: "ok" | "failed" | "timeout";
                /** @enum {string} */
                temporal: "ok" | "failed" | "timeout";
            };
        };
        Tenant: {
            id: string;
            name: string;
            quota: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
            };
            /** Format: date-time */
            createdAt: string;
        };
        CreateTenant: {
            name: string;
            quota: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
            };
        };
        TenantDetail: components["schemas"]["Tenant"] & {
            /** @description What the tenant holds now: instances whose quota is still charged, and its backups. */
            usage: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
                /** @description Backups written or being written: its servers' own, and those kept after their server was deleted, until they are deleted. */
                backups: number;
                /** @description The size of those backups, as their storages list them. */
                backupBytes: number;
            };
        };
        User: {
            id: string;
            tenantId: string | null;
            email: string;
            /**
             * @description `customer`: a user of a tenant, whose `tenantRole` says what they may do; `admin`: the operator.
             * @enum {string}
             */
            role: "customer" | "admin";
            /**
             * @description `owner`: users, tokens, webhooks, usage and every server of the tenant; `member`: creates servers, acts on their own and on those shared with them; `viewer`: reads only.
             * @enum {string|null}
             */
            tenantRole: "owner" | "member" | "viewer" | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Set while the user is disabled: none of its tokens work.
             */
            disabledAt: string | null;
        };
        CreateUser: {
            /** @description Required for customers; absent for admins. */
            tenantId?: string | null;
            /** Format: email */
            email: string;
            /**
             * @description A tenant role (`owner`, `member`, `viewer`) or `admin`, the operator. `customer` is kept for existing integrations and makes an `owner`.
             * @enum {string}
             */
            role: "owner" | "member" | "viewer" | "admin" | "customer";
        };
        IssuedToken: {
            id: string;
            /** @description The bearer token. Shown only in this response; only its digest is stored. */
            token: string;
            name: string | null;
            scopes: string[];
            projectId: string | null;
            /** Format: date-time */
            expiresAt: string | null;
        };
        CreateToken: {
            /** @description What the token is for (shown in the token list). */
            name?: string;
            /** @description The token stops working this many days from now. */
            expiresInDays?: number;
            /**
             * Format: date-time
             * @description The token stops working at this time. Give this or expiresInDays, not both; without either the token does not expire.
             */
            expiresAt?: string;
            /** @description What the token may do besides reading: `["read"]` keeps it to reads, a list of actions (`server.power`, `server.create`…) allows those too. Without scopes it may do all its user may; with them it never does more than its user, and never changes its own account (password, tokens). */
            scopes?: ("read" | "server.create" | "server.power" | "server.console" | "server.credentials" | "server.snapshots" | "server.backups" | "server.rebuild" | "server.resize" | "server.firewall" | "server.rescue" | "server.delete" | "server.share" | "tenant.users" | "tenant.webhooks" | "tenant.firewall" | "project.create" | "project.manage")[];
            /** @description Limits the token to one project its user may see: it reads, creates and acts on that project's servers only (never more than its user may there), and does nothing of the tenant as a whole nor of its own account. The token goes when the project is deleted. */
            projectId?: string;
        };
        ApiToken: {
            id: string;
            userId: string;
            name: string | null;
            /** @description Made from BOOTSTRAP_ADMIN_TOKEN; a start with another value revokes it. */
            bootstrap: boolean;
            /** @description What it may do besides reading; empty: all its user may. */
            scopes: string[];
            /** @description Set: the token acts on this project's servers only. */
            projectId: string | null;
            /** @description Whether the token authenticates now: not revoked, not expired, its user not disabled. */
            active: boolean;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Last successful authentication, to the minute.
             */
            lastUsedAt: string | null;
            /** Format: date-time */
            expiresAt: string | null;
            /** Format: date-time */
            revokedAt: string | null;
        };
        SignedIn: {
            session: components["schemas"]["Session"];
            user: components["schemas"]["User"];
            /** @description Send it back as `X-CSRF-Token` on every request that changes something. */
            csrfToken: string;
            /** @description For administrators: the Temporal Web UI's workflow list of this namespace (TEMPORAL_UI_URL); append `/<workflowId>`. Null for customers. */
            temporalWorkflowsUrl: string | null;
        };
        Session: {
            id: string;
            /** @description The session this request came with. */
            current: boolean;
            userAgent: string | null;
            /** @description The address it signed in from. */
            address: string | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Last request, to the minute.
             */
            lastSeenAt: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description Neither signed out, revoked, idle too long nor past its expiry. */
            active: boolean;
        };
        SignIn: {
            email: string;
            password: string;
        };
        AcceptedInvite: {
            email: string;
        };
        AcceptInvite: {
            /** @description The part after `#` of the invite link. */
            token: string;
            password: string;
        };
        Account: {
            user: components["schemas"]["User"];
            tenant: components["schemas"]["TenantDetail"] & unknown;
        };
        ChangePassword: {
            currentPassword: string;
            newPassword: string;
        };
        Invite: {
            id: string;
            userId: string;
            /** @description The one-time link (PUBLIC_URL), shown only in this answer; a newer invite replaces it. */
            url: string;
            /** Format: date-time */
            expiresAt: string;
        };
        SetPassword: {
            password: string;
        };
        AdminPlan: {
            id: string;
            name: string;
            vcpus: number;
            memoryMiB: number;
            diskGiB: number;
            /** @description Snapshots a server may hold at once (0: none). */
            snapshotLimit: number;
            /** @description Backups a server may hold at once (0: none). */
            backupLimit: number;
            /** @description Traffic a server may move per billing period, GiB (2^30 bytes); null: unmetered. */
            trafficAllowanceGiB: number | null;
            /** @enum {string} */
            trafficCounted: "out" | "in+out" | "max";
            /** @enum {string} */
            trafficOverage: "throttle" | "none";
            /** @description Megabits per second a throttled server is held to. */
            throttleMbps: number | null;
            /** @enum {string} */
            billingPeriod: "calendar_month" | "anniversary";
            defaultUsername: string | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it was archived; null while it is offered.
             */
            archivedAt: string | null;
        };
        CreatePlan: {
            name: string;
            vcpus: number;
            memoryMiB: number;
            diskGiB: number;
            defaultUsername?: string;
            /** @description Snapshots a server may hold at once; 0 (the default): none. */
            snapshotLimit?: number;
            /** @description Backups a server may hold at once; 0 (the default): none. */
            backupLimit?: number;
            /** @description Traffic a server may move per billing period, GiB (2^30 bytes); null (the default): unmetered. */
            trafficAllowanceGiB?: number | null;
            /**
             * @description What counts against the allowance: outbound only (the default), inbound and outbound together, or the larger of the two.
             * @enum {string}
             */
            trafficCounted?: "out" | "in+out" | "max";
            /**
             * @description Past 100% of the allowance: `throttle` holds the server's NICs to `throttleMbps` until the next period; `none` (the default) counts and reports only.
             * @enum {string}
             */
            trafficOverage?: "throttle" | "none";
            /** @description Megabits per second (10^6 bit/s) a throttled server may send and receive on each NIC. Proxmox VE sets NIC rates in megabytes per second: 10 Mbit/s becomes `rate=1.192`. */
            throttleMbps?: number | null;
            /**
             * @description `calendar_month` (the default): the month in UTC; `anniversary`: each server's own month from the hour it was created.
             * @enum {string}
             */
            billingPeriod?: "calendar_month" | "anniversary";
        };
        AdminImage: {
            id: string;
            name: string;
            os: string;
            version: string;
            loginMethods: ("password" | "ssh")[];
            defaultUsername: string | null;
            rootAllowed: boolean;
            templates: components["schemas"]["ImageTemplate"][];
            /** @description Where a URL image comes from; null for hand-made templates. */
            source: {
                url: string;
                checksumUrl: string | null;
                /** @enum {string} */
                checksumAlgorithm: "sha256" | "sha512";
                storage: string | null;
                locationIds: string[];
            } | null;
            refreshSchedule: components["schemas"]["ImageRefreshSchedule"];
            versions: components["schemas"]["ImageVersion"][];
            /** @description A URL image's state on each node, per version: importing (with the download's progress), ready, or failed with a stable code. */
            builds: components["schemas"]["ImageBuild"][];
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it was archived; null while it is offered.
             */
            archivedAt: string | null;
        };
        ImageTemplate: {
            id: string;
            connectionId: string;
            node: string;
            templateVmid: number;
        };
        /** @description How often the image is refreshed from its checksum URL; null: only on request. */
        ImageRefreshSchedule: {
            /**
             * @description How often the checksum URL is read again: `<n>h` (1–720) or `<n>d` (1–30). A changed checksum builds a new version, as a refresh does.
             * @example 24h
             */
            every: string;
        } | null;
        ImageVersion: {
            number: number;
            checksum: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            retiredAt: string | null;
        };
        ImageBuild: {
            connectionId: string;
            node: string;
            version: number;
            /** @enum {string} */
            state: "importing" | "ready" | "failed";
            storage: string | null;
            templateVmid: number | null;
            /** @description Percent of the download done, as Proxmox VE's task log reports it; null before it starts. */
            progress: number | null;
            errorCode: string | null;
            errorMessage: string | null;
            /**
             * Format: date-time
             * @description When its template (and its file, once unused) was removed: a newer version replaced it, or the image was deleted.
             */
            retiredAt: string | null;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateImage: {
            name: string;
            os: string;
            version: string;
            loginMethods: ("password" | "ssh")[];
            defaultUsername?: string;
            rootAllowed: boolean;
            /** @description Hand-made templates, one per node of a connection. Give either these or `source`. */
            templates?: {
                connectionId: string;
                node: string;
                templateVmid: number;
            }[];
            source?: components["schemas"]["ImageSource"];
            /** @description With `source`: the locations it is built in. Default: every location. */
            locationIds?: string[];
            /** @description With `source.checksumUrl`: refresh the image on this schedule (a Temporal Schedule per image). Default: none, refreshed only on request. */
            refreshSchedule?: {
                /**
                 * @description How often the checksum URL is read again: `<n>h` (1–720) or `<n>d` (1–30). A changed checksum builds a new version, as a refresh does.
                 * @example 24h
                 */
                every: string;
            } | null;
        };
        /** @description Build the image from a URL: a template on every node of every location offering it. Give either this or `templates`. */
        ImageSource: {
            /**
             * Format: uri
             * @description The disk image (qcow2, raw or vmdk; `.img` is read as qcow2). Proxmox VE downloads it once per storage.
             */
            url: string;
            /**
             * @description The file's checksum; Proxmox VE refuses a download whose checksum differs. Give either this or `checksumUrl`.
             * @example a3f1c9e2d4b5a6978877665544332211a3f1c9e2d4b5a6978877665544332211
             */
            checksum?: string;
            /**
             * Format: uri
             * @description A checksum list (`SHA256SUMS`-style: `<hex>  <file>`, `<hex> *<file>` or `SHA256 (<file>) = <hex>`) giving the checksum of the file `url` names (its last path segment). Read by the control plane, which reaches only public addresses unless `CHECKSUM_URL_ALLOW_PRIVATE_TARGETS` is set; read again on every refresh. Give either this or `checksum`.
             * @example https://cloud.debian.org/images/cloud/bookworm/latest/SHA512SUMS
             */
            checksumUrl?: string;
            /** @enum {string} */
            checksumAlgorithm: "sha256" | "sha512";
            /** @description The storage downloads go to; it must take content type `import`. Default: a shared storage taking import where there is one, else each node's own. */
            storage?: string;
        };
        AdminConnection: {
            id: string;
            name: string;
            url: string;
            tokenId: string;
            /** @description The secret is stored encrypted and never returned. */
            hasTokenSecret: boolean;
            /** @description The cluster's name from /cluster/status, read when the connection was made; null for a standalone node. */
            clusterName: string | null;
            vmidRange: {
                start: number;
                end: number;
            };
            nodes: components["schemas"]["Node"][];
            storage: string;
            caCert: string | null;
            insecureTls: boolean;
            plaintextLab: boolean;
            /** @description Where custom cloud-init user data is written; null: creates with userData are refused here. */
            snippets: {
                storage: string;
                directory: string;
            } | null;
            /** @description The user serial consoles log in as on clusters before Proxmox VE 9 (its password is stored encrypted and never returned); null: none. */
            consoleUser: {
                username: string;
            } | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it was archived; null while it is offered.
             */
            archivedAt: string | null;
            /** @description Only on the answer to a create or an update, which saved the connection all the same: what the operator should see to (docs/security.md, "The cluster firewall switch"). */
            warnings?: {
                /**
                 * @description CLUSTER_FIREWALL_OFF: the cluster's firewall switch is off, so no server's anti-spoofing or firewall rule acts; CLUSTER_FIREWALL_UNREAD: the switch could not be read.
                 * @enum {string}
                 */
                code: "CLUSTER_FIREWALL_OFF" | "CLUSTER_FIREWALL_UNREAD";
                message: string;
            }[];
        };
        Node: {
            id: string;
            name: string;
            vcpus: number;
            memoryMiB: number;
            diskGiB: number;
            enabled: boolean;
            draining: boolean;
        };
        /** @description `url` must be https unless `plaintextLab` is true. */
        CreateConnection: {
            name: string;
            /** Format: uri */
            url: string;
            tokenId: string;
            tokenSecret: string;
            vmidRange: components["schemas"]["VmidRange"];
            nodes: components["schemas"]["NodeSpec"][];
            storage?: string;
            snippets?: components["schemas"]["Snippets"];
            caCert?: string;
            insecureTls?: boolean;
            /** @description Allows an http:// URL: a lab or a simulator, where the token secret may cross the network in clear. Default false: https only. */
            plaintextLab?: boolean;
            consoleUser?: components["schemas"]["ConsoleUser"];
        };
        VmidRange: {
            start: number;
            end: number;
        };
        NodeSpec: {
            name: string;
            vcpus: number;
            memoryMiB: number;
            diskGiB: number;
        };
        Snippets: {
            /** @description The Proxmox VE storage id, with content type `snippets`, available on every node of the connection. */
            storage: string;
            /** @description That storage's snippets directory as mounted on the hosts running the worker, e.g. /mnt/pve/cephfs/snippets. Saved only once a probe file a worker writes there is listed by every node (else 422 SNIPPETS_NOT_VISIBLE). */
            directory?: string;
            /** @description Not supported yet (422 UNSUPPORTED): write the snippet on each node over SSH. */
            ssh?: {
                user: string;
                privateKey: string;
                directory: string;
            };
        };
        /** @description A Proxmox VE user holding only VM.Console. Clusters whose access control predates token-owned console tickets (before Proxmox VE 9) give serial consoles only to users: the API logs in as this user for them. Without one, serial consoles there answer 422 CONSOLE_UNSUPPORTED. */
        ConsoleUser: {
            username: string;
            /** @description Write-only: stored encrypted, never returned. */
            password: string;
        };
        AdminLocation: {
            id: string;
            name: string;
            connectionId: string;
            ipPools: components["schemas"]["AdminIpPool"][];
            snapshotsSupported: boolean;
            backupStorage: string | null;
            isoStorage: string | null;
            isoStorageShared: boolean;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it was archived; null while it is offered.
             */
            archivedAt: string | null;
        };
        AdminIpPool: {
            id: string;
            cidr: string;
            family: 4 | 6;
            gateway: string;
            bridge: string;
            vlan: number | null;
            dns: string[];
            locationId: string | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it was archived; null while it is offered.
             */
            archivedAt: string | null;
        };
        CreateLocation: {
            name: string;
            connectionId: string;
            /** @description Pool ids; at least one IPv4 pool, each not yet in another location. */
            ipPools: string[];
            /** @description false when the connection's storage cannot take snapshots (thick LVM, raw images on a directory, NFS or CIFS): snapshot requests then answer 422 SNAPSHOTS_UNSUPPORTED. Default true. */
            snapshotsSupported?: boolean;
            /** @description The storage (content type `backup`) backups are written to; null: no backups in this location. */
            backupStorage?: string | null;
            /** @description The storage (content type `iso`) the ISO library is downloaded into and mounted from; null: no ISOs or rescue mode in this location. */
            isoStorage?: string | null;
            /** @description true (default) when every node of the location reads the ISO storage (NFS, CIFS, CephFS): an ISO is downloaded once. false: once per node (a node's `local`). */
            isoStorageShared?: boolean;
        };
        CreateIpPool: {
            cidr: string;
            gateway: string;
            bridge: string;
            vlan?: number;
            dns: string[];
            family: 4 | 6;
        };
        /** @description Sizes cannot change while servers use the plan (409): make a new plan and archive this one. */
        UpdatePlan: {
            name?: string;
            vcpus?: number;
            memoryMiB?: number;
            diskGiB?: number;
            defaultUsername?: string | null;
            /** @description Snapshots a server may hold at once; 0 (the default): none. */
            snapshotLimit?: number;
            /** @description Backups a server may hold at once; 0 (the default): none. */
            backupLimit?: number;
            /** @description Traffic a server may move per billing period, GiB (2^30 bytes); null (the default): unmetered. */
            trafficAllowanceGiB?: number | null;
            /**
             * @description What counts against the allowance: outbound only (the default), inbound and outbound together, or the larger of the two.
             * @enum {string}
             */
            trafficCounted?: "out" | "in+out" | "max";
            /**
             * @description Past 100% of the allowance: `throttle` holds the server's NICs to `throttleMbps` until the next period; `none` (the default) counts and reports only.
             * @enum {string}
             */
            trafficOverage?: "throttle" | "none";
            /** @description Megabits per second (10^6 bit/s) a throttled server may send and receive on each NIC. Proxmox VE sets NIC rates in megabytes per second: 10 Mbit/s becomes `rate=1.192`. */
            throttleMbps?: number | null;
            /**
             * @description `calendar_month` (the default): the month in UTC; `anniversary`: each server's own month from the hour it was created.
             * @enum {string}
             */
            billingPeriod?: "calendar_month" | "anniversary";
            /** @description true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it. */
            archived?: boolean;
        };
        UpdateImage: {
            name?: string;
            os?: string;
            version?: string;
            loginMethods?: ("password" | "ssh")[];
            defaultUsername?: string | null;
            rootAllowed?: boolean;
            /** @description Templates to add or replace, by connection and node; the others stay. Servers rebuild from the template of their node. */
            templates?: {
                connectionId: string;
                node: string;
                templateVmid: number;
            }[];
            /** @description A URL image's refresh schedule; null removes it. Only for an image with a checksum URL (else `409 INVALID_STATE`). */
            refreshSchedule?: {
                /**
                 * @description How often the checksum URL is read again: `<n>h` (1–720) or `<n>d` (1–30). A changed checksum builds a new version, as a refresh does.
                 * @example 24h
                 */
                every: string;
            } | null;
            /** @description true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it. */
            archived?: boolean;
        };
        /** @description A change of URL, token or TLS settings is saved only after Proxmox VE answered GET /cluster/status with them (400 token refused, 422 CONNECTION_PRIVILEGES_MISSING when the token may not read it, 503 unreachable, 409 another cluster). */
        UpdateConnection: {
            name?: string;
            /** Format: uri */
            url?: string;
            tokenId?: string;
            tokenSecret?: string;
            caCert?: string | null;
            insecureTls?: boolean;
            /** @description Allows an http:// URL: a lab or a simulator, where the token secret may cross the network in clear. Default false: https only. */
            plaintextLab?: boolean;
            /** @description Where new servers get their disk; existing volumes stay where they are. */
            storage?: string;
            snippets?: components["schemas"]["Snippets"] & (Record<string, never> | null);
            /** @description null removes the console user. */
            consoleUser?: {
                username: string;
                /** @description Write-only: stored encrypted, never returned. */
                password: string;
            } | null;
            /** @description true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it. */
            archived?: boolean;
            /** @description Save even if the new settings reach a cluster of another name than the recorded one. */
            force?: boolean;
        };
        AdminConnectionDetail: components["schemas"]["AdminConnection"] & {
            health: components["schemas"]["ConnectionHealth"];
        };
        ConnectionHealth: {
            /** Format: date-time */
            checkedAt: string;
            /** @description Proxmox VE answered GET /version with this token (each read waits 3 s at most). */
            reachable: boolean;
            /** @description Why Proxmox VE could not be asked; null when reachable. */
            error: {
                /**
                 * @description PROVIDER_UNAVAILABLE: no answer in time (network, TLS, a 5xx); TOKEN_REFUSED: Proxmox VE answered 401; TOKEN_SECRET_UNREADABLE: no key of the encryption key ring opens the stored secret.
                 * @enum {string}
                 */
                code: "PROVIDER_UNAVAILABLE" | "TOKEN_REFUSED" | "TOKEN_SECRET_UNREADABLE";
                message: string;
            } | null;
            /** @description The minimal role (docs/security.md) on each path this connection works on, read with GET /access/permissions?path=; null when unread. */
            privileges: {
                path: string;
                /** @description The minimal role's privileges the token holds on this path. */
                held: string[];
                /** @description Those it lacks (a renamed privilege as `new or old`), as 422 CONNECTION_PRIVILEGES_MISSING names them on save. */
                missing: string[];
            }[] | null;
            /** @description null when unread. */
            clusterFirewall: {
                /** @description The cluster's firewall switch (`enable` of GET /cluster/firewall/options): off, no guest firewall rule acts. */
                enabled: boolean;
            } | null;
            /** @description Why `privileges` or `clusterFirewall` is null, in Proxmox VE's words (e.g. `GET /cluster/firewall/options answered 403: Permission check failed (/, Sys.Audit)`). */
            unavailable: {
                privileges?: string;
                clusterFirewall?: string;
            };
        };
        UpdateLocation: {
            name?: string;
            /** @description Pools to add to the location, each not yet in another location. */
            addIpPools?: string[];
            /** @description false when the connection's storage cannot take snapshots (thick LVM, raw images on a directory, NFS or CIFS): snapshot requests then answer 422 SNAPSHOTS_UNSUPPORTED. Default true. */
            snapshotsSupported?: boolean;
            /** @description The storage (content type `backup`) backups are written to; null: no backups in this location. */
            backupStorage?: string | null;
            /** @description The storage (content type `iso`) the ISO library is downloaded into and mounted from; null: no ISOs or rescue mode in this location. */
            isoStorage?: string | null;
            /** @description true (default) when every node of the location reads the ISO storage (NFS, CIFS, CephFS): an ISO is downloaded once. false: once per node (a node's `local`). */
            isoStorageShared?: boolean;
            /** @description true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it. */
            archived?: boolean;
        };
        /** @description Bridge, VLAN and DNS apply to servers created or rebuilt from now on. */
        UpdateIpPool: {
            /** @description Only while no address was ever handed out from the pool. */
            cidr?: string;
            gateway?: string;
            bridge?: string;
            vlan?: number | null;
            dns?: string[];
            /** @description true archives: existing servers keep it, new creates refuse it (422 ARCHIVED) and customers no longer see it; false restores it. */
            archived?: boolean;
        };
        RefreshImage: {
            /**
             * @description The checksum of the file now at the image's URL, in the image's algorithm. Without it, the image's checksum URL is read again (an image without one needs it).
             * @example a3f1c9e2d4b5a6978877665544332211a3f1c9e2d4b5a6978877665544332211
             */
            checksum?: string;
        };
        /** @description Capacity below what servers hold on the node is refused (409, with the numbers). */
        UpdateNode: {
            vcpus?: number;
            memoryMiB?: number;
            diskGiB?: number;
            /** @description false: no new placements, and no resize or migration to it. */
            enabled?: boolean;
            /** @description true: no new servers are placed here (creates, migrations to it); the servers on it keep working. */
            draining?: boolean;
        };
        Plan: {
            id: string;
            name: string;
            vcpus: number;
            memoryMiB: number;
            diskGiB: number;
            /** @description Snapshots a server may hold at once (0: none). */
            snapshotLimit: number;
            /** @description Backups a server may hold at once (0: none). */
            backupLimit: number;
            /** @description Traffic a server may move per billing period, GiB (2^30 bytes); null: unmetered. */
            trafficAllowanceGiB: number | null;
            /** @enum {string} */
            trafficCounted: "out" | "in+out" | "max";
            /** @enum {string} */
            trafficOverage: "throttle" | "none";
            /** @description Megabits per second a throttled server is held to. */
            throttleMbps: number | null;
            /** @enum {string} */
            billingPeriod: "calendar_month" | "anniversary";
        };
        Location: {
            id: string;
            name: string;
            /** @description Instances here get an IPv4 address. */
            ipv4: boolean;
            /** @description Instances here get an IPv6 address when one is free. */
            ipv6: boolean;
            /** @description Servers here can take snapshots. */
            snapshots: boolean;
            /** @description Servers here can be backed up. */
            backups: boolean;
        };
        Image: {
            id: string;
            name: string;
            os: string;
            version: string;
            loginMethods: ("password" | "ssh")[];
            defaultUsername: string | null;
            rootAllowed: boolean;
        };
        Instance: {
            id: string;
            /** @description The project of its tenant it belongs to. */
            projectId: string;
            hostname: string;
            /** @enum {string} */
            status: "pending" | "scheduling" | "provisioning" | "running" | "starting" | "stopping" | "stopped" | "rebooting" | "resizing" | "rebuilding" | "migrating" | "deleting" | "deleted" | "failed" | "rollback_failed" | "rebuild_failed" | "lost" | "snapshotting" | "rolling_back" | "backing_up" | "restoring" | "updating_firewall" | "rescue" | "entering_rescue" | "leaving_rescue" | "configuring_boot" | "updating_network";
            /** @enum {string} */
            desiredState: "running" | "stopped" | "deleted";
            plan: {
                id: string;
                name: string;
            };
            location: {
                id: string;
                name: string;
            };
            image: {
                id: string;
                name: string;
            };
            ipv4: string | null;
            ipv6: string | null;
            username: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The latest task, if any. */
            task: components["schemas"]["Task"] | null;
            failure: {
                code: string;
                message: string;
            } | null;
            /** @description The ISO in the CD-ROM drive (the rescue system while in rescue); null: empty. */
            iso: {
                id: string;
                name: string;
            } | null;
            /**
             * @description What the server boots from first (from its next start, after a change).
             * @enum {string}
             */
            bootFirst: "disk" | "cdrom";
            /** @description Set while the server is in rescue mode (running, `rescue`, or stopped). */
            rescue: {
                /** Format: date-time */
                since: string;
            } | null;
        };
        Task: {
            id: string;
            type: string;
            /** @enum {string} */
            status: "pending" | "running" | "succeeded" | "failed";
            progress: number;
            currentStep: string | null;
            steps: {
                step: string;
                /** @enum {string} */
                status: "processing" | "success" | "warning" | "error";
                message: string;
                /** Format: date-time */
                at: string;
            }[];
            error: {
                code: string;
                message: string;
            } | null;
        };
        Credential: {
            username: string;
            password?: string;
            sshKeys?: string[];
            /** Format: date-time */
            expiresAt: string;
        };
        AdminInstance: components["schemas"]["Instance"] & {
            tenantId: string;
            provider: {
                connectionId: string;
                node: string | null;
                vmid: number | null;
                templateVmid: number | null;
                storage: string;
                macAddress: string | null;
                workflowId: string;
                operations: {
                    stage: string;
                    kind: string;
                    node: string;
                    upid: string | null;
                    status: string;
                    exitStatus: string | null;
                }[];
            };
            failureCause?: unknown;
        };
        QuarantinedVmid: {
            id: string;
            connectionId: string;
            vmid: number;
            /** @description The node of the guest found there ('unknown' when Proxmox only said the VMID is taken). */
            strangerNode: string | null;
            /** @description Its name, as Proxmox lists it. */
            strangerName: string | null;
            /** @description The server whose clone stage found it and moved on to another VMID. */
            foundByInstanceId: string | null;
            quarantinedAt: string | null;
        };
        Snapshot: {
            name: string;
            description: string;
            includesMemory: boolean;
            /** @enum {string} */
            status: "creating" | "available" | "deleting" | "deleted" | "failed";
            /** Format: date-time */
            createdAt: string;
        };
        Firewall: {
            /** @enum {string} */
            inboundPolicy: "accept" | "drop";
            /**
             * @description Outbound traffic is always allowed (address anti-spoofing aside).
             * @enum {string}
             */
            outboundPolicy: "accept";
            rules: ({
                group: string;
                /** @description The group's name now. */
                name: string;
            } | {
                /** @enum {string} */
                action: "accept" | "drop";
                /** @enum {string} */
                protocol: "tcp" | "udp" | "icmp" | "any";
                port?: string;
                sources: string[];
                comment: string;
            })[];
            /** @description The same as the `ETag` header, without quotes. */
            revision: string;
            application: components["schemas"]["FirewallApplication"];
        };
        FirewallApplication: {
            /**
             * @description `applied`: the guest holds these rules (with the groups as they are now); `pending`: an apply is due or under way; `failed`: the last apply failed (see its task).
             * @enum {string}
             */
            state: "applied" | "pending" | "failed";
            taskId: string | null;
            /** @enum {string|null} */
            taskStatus: "pending" | "running" | "succeeded" | "failed" | null;
            errorCode: string | null;
        };
        FirewallUpdate: {
            /**
             * @description What happens to inbound traffic no rule matches.
             * @enum {string}
             */
            inboundPolicy: "accept" | "drop";
            /** @description Inbound rules in order, the first match deciding; at most 64, groups' rules counted in. */
            rules: components["schemas"]["FirewallEntry"][];
        };
        FirewallEntry: {
            /** @description A firewall group of the tenant: its rules stand in this place. */
            group: string;
        } | components["schemas"]["FirewallRule"];
        FirewallRule: {
            /** @enum {string} */
            action: "accept" | "drop";
            /** @enum {string} */
            protocol: "tcp" | "udp" | "icmp" | "any";
            /** @description tcp and udp only: `443` or `8000-8100`; absent: every port. */
            port?: string;
            /**
             * @description IPv4 or IPv6 addresses and CIDRs (host bits clear); empty: from anywhere.
             * @default []
             */
            sources: string[];
            /** @default  */
            comment: string;
        };
        FirewallGroup: components["schemas"]["FirewallGroupSummary"] & {
            /** @description The servers whose rules name this group, each with how applying the group as it is now went. */
            servers: {
                id: string;
                hostname: string;
                application: components["schemas"]["FirewallApplication"];
            }[];
        };
        FirewallGroupSummary: {
            id: string;
            tenantId: string;
            name: string;
            description: string;
            rules: {
                /** @enum {string} */
                action: "accept" | "drop";
                /** @enum {string} */
                protocol: "tcp" | "udp" | "icmp" | "any";
                port?: string;
                sources: string[];
                comment: string;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        FirewallGroupCreate: {
            /** @example web servers */
            name: string;
            /** @default  */
            description: string;
            rules: components["schemas"]["FirewallRule"][];
            /** @description Administrators only: the tenant the group is for (a customer's group is their tenant's). */
            tenantId?: string;
        };
        FirewallGroupUpdate: {
            /** @example web servers */
            name?: string;
            description?: string;
            rules?: components["schemas"]["FirewallRule"][];
        };
        Project: {
            id: string;
            tenantId: string;
            name: string;
            /** @description The tenant's default project: creates without a `projectId` land in it, every user of the tenant may create servers in it, and it is never deleted. */
            isDefault: boolean;
            allowedPlanIds: string[] | null;
            allowedImageIds: string[] | null;
            allowedLocationIds: string[] | null;
            quota: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
            } | null;
            /** @description What its servers whose quota is still charged hold. */
            usage: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
            };
            members: components["schemas"]["ProjectMember"][];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ProjectMember: {
            userId: string;
            email: string;
            /**
             * @description `owner`: creates servers in the project and acts on every one of them; `member`: creates servers in it, reads all of them, acts on their own and on what is shared with them; `viewer`: reads its servers. A tenant viewer reads only, whatever their project role.
             * @enum {string}
             */
            role: "owner" | "member" | "viewer";
            /** Format: date-time */
            createdAt: string;
        };
        ProjectCreate: {
            /** @example staging */
            name: string;
            /** @description The plans its servers may use; null: any. */
            allowedPlanIds?: string[] | null;
            /** @description The images its servers may use; null: any. */
            allowedImageIds?: string[] | null;
            /** @description The locations its servers may use; null: any. */
            allowedLocationIds?: string[] | null;
            /** @description Its own quota inside the tenant's, the tenant quota's shape; null: only the tenant's quota applies. */
            quota?: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
            } | null;
        };
        ProjectUpdate: {
            /** @example staging */
            name?: string;
            /** @description The plans its servers may use; null: any. */
            allowedPlanIds?: string[] | null;
            /** @description The images its servers may use; null: any. */
            allowedImageIds?: string[] | null;
            /** @description The locations its servers may use; null: any. */
            allowedLocationIds?: string[] | null;
            /** @description Its own quota inside the tenant's, the tenant quota's shape; null: only the tenant's quota applies. */
            quota?: {
                instances: number;
                vcpus: number;
                memoryMiB: number;
                diskGiB: number;
            } | null;
        };
        ProjectMemberUpdate: {
            /**
             * @description `owner`: creates servers in the project and acts on every one of them; `member`: creates servers in it, reads all of them, acts on their own and on what is shared with them; `viewer`: reads its servers. A tenant viewer reads only, whatever their project role.
             * @enum {string}
             */
            role: "owner" | "member" | "viewer";
        };
        Backup: {
            id: string;
            instanceId: string;
            /** @enum {string} */
            status: "pending" | "running" | "available" | "failed" | "lost" | "deleting" | "deleted";
            notes: string | null;
            protected: boolean;
            /** @description Made outside this service (the Proxmox VE UI or a Proxmox backup job) for this server; restorable like the others. */
            external: boolean;
            /** @description The archive's size on the backup storage, once written. */
            sizeBytes: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            completedAt: string | null;
            failure: {
                code: string;
                message: string;
            } | null;
        };
        BackupSchedule: {
            instanceId: string;
            /** @enum {string} */
            frequency: "daily" | "weekly";
            time: string;
            timezone: string;
            /** @enum {string|null} */
            weekday: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday" | null;
            keepLast: number;
            /**
             * Format: date-time
             * @description When the schedule last fired.
             */
            lastRunAt: string | null;
            /** @description The backup the last run made. */
            lastBackupId: string | null;
            /** @description The error code the last run was refused with (such as BACKUP_LIMIT_REACHED or OPERATION_IN_PROGRESS); null when it made a backup. */
            lastRefusal: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Iso: {
            id: string;
            name: string;
            /** @description The locations where it is ready (on every host there, or on some). */
            locations: {
                id: string;
                name: string;
            }[];
        };
        RescuePassword: {
            username: string;
            password: string;
            /** Format: date-time */
            expiresAt: string;
        };
        AdminIso: {
            id: string;
            name: string;
            url: string;
            checksum: string;
            checksumAlgorithm: string;
            tenantId: string | null;
            rescue: boolean;
            fileName: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            deletedAt: string | null;
            copies: {
                location: {
                    id: string;
                    name: string;
                };
                storage: string;
                /** @description The node whose local storage holds it; null: the location’s shared storage. */
                node: string | null;
                /** @enum {string} */
                state: "importing" | "ready" | "failed" | "deleting";
                failure: string | null;
                /** Format: date-time */
                updatedAt: string;
            }[];
        };
        CreateIso: {
            name: string;
            /**
             * Format: uri
             * @description Where Proxmox VE downloads it from (download-url, content `iso`).
             */
            url: string;
            /**
             * @description The hex digest Proxmox VE checks the download against.
             * @example e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
             */
            checksum: string;
            /** @enum {string} */
            checksumAlgorithm: "md5" | "sha1" | "sha224" | "sha256" | "sha384" | "sha512";
            /** @description Private to this tenant; absent or null: public (every tenant). */
            tenantId?: string | null;
            /** @description A rescue system: the newest one ready in a location serves its servers' rescue mode. Always public. */
            rescue?: boolean;
        };
        InstanceMetrics: {
            /** @enum {string} */
            timeframe: "hour" | "day" | "week";
            /** @description Seconds between two points. */
            stepSeconds: number;
            /** @description Oldest first; empty while the server has no guest yet (being built) or any more (deleted). Points from before the server was created carry only their time. */
            points: {
                /**
                 * Format: date-time
                 * @description End of the interval the point averages.
                 */
                time: string;
                /** @description Share of the server's vCPUs in use, 0 to 1. */
                cpu: number | null;
                /** @description Memory in use. */
                memoryBytes: number | null;
                /** @description Memory the server has. */
                memoryTotalBytes: number | null;
                /** @description Traffic received. */
                netInBytesPerSecond: number | null;
                /** @description Traffic sent. */
                netOutBytesPerSecond: number | null;
                /** @description Disk reads. */
                diskReadBytesPerSecond: number | null;
                /** @description Disk writes. */
                diskWriteBytesPerSecond: number | null;
            }[];
        };
        InstanceTraffic: {
            period: {
                /** Format: date-time */
                start: string;
                /**
                 * Format: date-time
                 * @description Exclusive.
                 */
                end: string;
                current: boolean;
            };
            /** @description Received in the period. Bytes, an exact integer. */
            inBytes: number;
            /** @description Sent in the period. Bytes, an exact integer. */
            outBytes: number;
            /**
             * @description What counts against the allowance (the plan's `trafficCounted`).
             * @enum {string}
             */
            counted: "out" | "in+out" | "max";
            /** @description What counts against the allowance. Bytes, an exact integer. */
            countedBytes: number;
            /** @description The plan's allowance plus what an operator added for this period; null: unmetered. */
            allowanceBytes: number | null;
            /** @description Added by an operator for this period. */
            extraAllowanceGiB: number;
            /** @description Percent of the allowance used, one decimal; null: unmetered. */
            percent: number | null;
            /** @enum {string} */
            overage: "throttle" | "none";
            /** @description Set while the server is throttled. */
            throttle: {
                /** Format: date-time */
                since: string;
                mbps: number;
                /**
                 * Format: date-time
                 * @description The end of the period: the throttle is removed then.
                 */
                until: string | null;
            } | null;
            /**
             * Format: date-time
             * @description When an operator lifted the throttle for the rest of the period.
             */
            liftedAt: string | null;
            /**
             * Format: date-time
             * @description When the counters were last read: traffic since then is not counted yet.
             */
            sampledAt: string | null;
            /** @description One entry per UTC day of the period so far, oldest first. */
            daily: {
                /** Format: date */
                date: string;
                /** @description Received that UTC day. Bytes, an exact integer. */
                inBytes: number;
                /** @description Sent that UTC day. Bytes, an exact integer. */
                outBytes: number;
            }[];
        };
        AddTrafficAllowance: {
            /** @description GiB added to the current period only. */
            addGiB: number;
        };
        UsageRecord: {
            /**
             * Format: date-time
             * @description The UTC hour the record is of (its start).
             */
            hour: string;
            /** @description 0; 1 for the part of an hour after a resize within it. */
            part: number;
            instanceId: string;
            tenantId: string;
            hostname: string;
            planId: string;
            planName: string;
            /** @description Seconds of the hour the server existed under this plan; the records of a server add up to its life. */
            seconds: number;
            /**
             * @description running: seen running in the hour; stopped: its guest seen, never running; exists: no sample of a guest in the hour (being built, or the sampler did not run).
             * @enum {string}
             */
            state: "running" | "stopped" | "exists";
            /** @description IP addresses held at the hour's last sample. */
            addresses: number;
            /** @description Received in the hour (split by seconds between the parts of a resized hour). */
            inBytes: number;
            /** @description Sent in the hour. */
            outBytes: number;
            /** @description Backups stored at the hour's last sample. */
            backupBytes: number;
            /** @description Snapshots held at the hour's last sample. */
            snapshotCount: number;
            /** @description true until the sample after the hour was taken (or the server is gone); a record no longer open never changes. */
            open: boolean;
        };
        ConsoleOffer: {
            /** @description Opens the console page in a browser: `/console/{type}?instance=<id>#ticket=…` (the ticket rides in the fragment). */
            url: string;
            /** @description The same session for other clients: RFB 3.8 with security type None (vnc), or the terminal bytes as binary frames both ways plus text frames `{"type":"resize","cols":N,"rows":M}` (serial). A browser page may open it only from PUBLIC_URL's origin (another `Origin` is refused with 403); clients that send no `Origin` are let in. The close reason says why the console ended; it also ends within seconds once the session or token that asked for it no longer signs requests in. */
            websocketUrl: string;
            /**
             * Format: date-time
             * @description Connect before this (at most 30 s); the ticket works once.
             */
            expiresAt: string;
        };
        ConsoleRequest: {
            /**
             * @description `vnc`: the screen; `serial`: the first serial port as a terminal.
             * @enum {string}
             */
            type: "vnc" | "serial";
        };
        AdminTask: components["schemas"]["Task"] & {
            instanceId: string;
            tenantId: string;
            /** @description Why the task failed, for operators: the failure's type, operation and phase, Proxmox's message and the provider call. */
            failureCause?: unknown;
        };
        CreatedWebhook: components["schemas"]["Webhook"] & {
            /** @description The signing secret, `whsec_` and base64 (the Standard Webhooks form): shown in this answer only. */
            secret: string;
        };
        Webhook: {
            id: string;
            /** @description null: an admin's endpoint for every tenant. */
            tenantId: string | null;
            url: string;
            eventTypes: ("instance.created" | "instance.scheduled" | "instance.running" | "instance.stopping" | "instance.stopped" | "instance.starting" | "instance.rebooting" | "instance.resizing" | "instance.resized" | "instance.rebuilding" | "instance.rebuilt" | "instance.migrating" | "instance.migrated" | "instance.deleting" | "instance.deleted" | "instance.failed" | "instance.lost" | "instance.changed_outside" | "instance.firewall_restored" | "instance.snapshotting" | "instance.rolling_back" | "instance.rolled_back" | "instance.backing_up" | "instance.restoring" | "instance.restored" | "instance.traffic_threshold" | "instance.throttled" | "instance.unthrottled" | "instance.updating_network" | "instance.updating_firewall" | "instance.firewall_updated" | "instance.boot_changing" | "instance.boot_changed" | "instance.rescue_entering" | "instance.rescue_entered" | "instance.rescue_leaving" | "instance.rescue_left" | "snapshot.created" | "snapshot.deleted" | "backup.created" | "backup.failed" | "backup.deleted" | "backup.lost" | "backup.found" | "user.invited" | "user.joined")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            disabledReason: string | null;
            disabledAt: string | null;
            /** @description Since when deliveries have failed without a success in between. */
            failingSince: string | null;
            createdAt: string;
            updatedAt: string;
        };
        CreateWebhook: {
            /** @description `https` (plain `http` only outside production); no loopback, link-local, private or other special-purpose address (IANA) unless an admin allows them. */
            url: string;
            /**
             * @description The event types to receive; empty or omitted: every type.
             * @default []
             */
            eventTypes: ("instance.created" | "instance.scheduled" | "instance.running" | "instance.stopping" | "instance.stopped" | "instance.starting" | "instance.rebooting" | "instance.resizing" | "instance.resized" | "instance.rebuilding" | "instance.rebuilt" | "instance.migrating" | "instance.migrated" | "instance.deleting" | "instance.deleted" | "instance.failed" | "instance.lost" | "instance.changed_outside" | "instance.firewall_restored" | "instance.snapshotting" | "instance.rolling_back" | "instance.rolled_back" | "instance.backing_up" | "instance.restoring" | "instance.restored" | "instance.traffic_threshold" | "instance.throttled" | "instance.unthrottled" | "instance.updating_network" | "instance.updating_firewall" | "instance.firewall_updated" | "instance.boot_changing" | "instance.boot_changed" | "instance.rescue_entering" | "instance.rescue_entered" | "instance.rescue_leaving" | "instance.rescue_left" | "snapshot.created" | "snapshot.deleted" | "backup.created" | "backup.failed" | "backup.deleted" | "backup.lost" | "backup.found" | "user.invited" | "user.joined")[];
            /** @description Admins only: the tenant whose events it receives; omitted, every tenant's. */
            tenantId?: string;
        };
        UpdateWebhook: {
            /** @description Enabling again clears the reason and restarts the pending deliveries with a fresh retry window. */
            enabled?: boolean;
            /** @description The event types to receive; empty or omitted: every type. */
            eventTypes?: ("instance.created" | "instance.scheduled" | "instance.running" | "instance.stopping" | "instance.stopped" | "instance.starting" | "instance.rebooting" | "instance.resizing" | "instance.resized" | "instance.rebuilding" | "instance.rebuilt" | "instance.migrating" | "instance.migrated" | "instance.deleting" | "instance.deleted" | "instance.failed" | "instance.lost" | "instance.changed_outside" | "instance.firewall_restored" | "instance.snapshotting" | "instance.rolling_back" | "instance.rolled_back" | "instance.backing_up" | "instance.restoring" | "instance.restored" | "instance.traffic_threshold" | "instance.throttled" | "instance.unthrottled" | "instance.updating_network" | "instance.updating_firewall" | "instance.firewall_updated" | "instance.boot_changing" | "instance.boot_changed" | "instance.rescue_entering" | "instance.rescue_entered" | "instance.rescue_leaving" | "instance.rescue_left" | "snapshot.created" | "snapshot.deleted" | "backup.created" | "backup.failed" | "backup.deleted" | "backup.lost" | "backup.found" | "user.invited" | "user.joined")[];
        };
        WebhookDelivery: {
            id: string;
            /** @description Also the `Pvecp-Event-Id` header: deduplicate by it. */
            eventId: string;
            /** @enum {string} */
            eventType: "instance.created" | "instance.scheduled" | "instance.running" | "instance.stopping" | "instance.stopped" | "instance.starting" | "instance.rebooting" | "instance.resizing" | "instance.resized" | "instance.rebuilding" | "instance.rebuilt" | "instance.migrating" | "instance.migrated" | "instance.deleting" | "instance.deleted" | "instance.failed" | "instance.lost" | "instance.changed_outside" | "instance.firewall_restored" | "instance.snapshotting" | "instance.rolling_back" | "instance.rolled_back" | "instance.backing_up" | "instance.restoring" | "instance.restored" | "instance.traffic_threshold" | "instance.throttled" | "instance.unthrottled" | "instance.updating_network" | "instance.updating_firewall" | "instance.firewall_updated" | "instance.boot_changing" | "instance.boot_changed" | "instance.rescue_entering" | "instance.rescue_entered" | "instance.rescue_leaving" | "instance.rescue_left" | "snapshot.created" | "snapshot.deleted" | "backup.created" | "backup.failed" | "backup.deleted" | "backup.lost" | "backup.found" | "user.invited" | "user.joined";
            instanceId: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /** @description The receiver's HTTP status at the last attempt; null when it did not answer. */
            lastResponseCode: number | null;
            lastError: string | null;
            lastAttemptAt: string | null;
            /** @description While pending: when the next attempt is due. */
            nextAttemptAt: string | null;
            deliveredAt: string | null;
            createdAt: string;
        };
        SshKey: {
            id: string;
            name: string;
            publicKey: string;
            /**
             * @description SHA256 fingerprint as `ssh-keygen -l` prints it.
             * @example SHA256:15ymGKPKoD5bsOWJGgzRcVw5oaMmpX7P5WZUjoOBKHo
             */
            fingerprint: string;
            /** @enum {string} */
            type: "ed25519" | "ecdsa" | "rsa";
            bits: number;
            /** Format: date-time */
            createdAt: string;
        };
        CreateSshKey: {
            /** @description What you call the key, e.g. `laptop`. */
            name: string;
            /** @description One OpenSSH public key line, as in `~/.ssh/id_ed25519.pub`: ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of 2048 bits or more. */
            publicKey: string;
        };
        CreateTenantUser: {
            /** Format: email */
            email: string;
            /**
             * @description `owner`: users, tokens, webhooks, usage and every server of the tenant; `member`: creates servers, acts on their own and on those shared with them; `viewer`: reads only.
             * @enum {string}
             */
            role: "owner" | "member" | "viewer";
        };
        ChangeTenantUser: {
            /**
             * @description `owner`: users, tokens, webhooks, usage and every server of the tenant; `member`: creates servers, acts on their own and on those shared with them; `viewer`: reads only.
             * @enum {string}
             */
            role?: "owner" | "member" | "viewer";
            /** @description true: every session of the user ends and none of its tokens works until enabled again. */
            disabled?: boolean;
        };
        Grant: {
            userId: string;
            email: string;
            permissions: ("read" | "power" | "console" | "credentials" | "snapshots" | "backups" | "rebuild" | "resize" | "firewall" | "rescue" | "delete")[];
            createdBy: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateGrant: {
            /** @description A user of the server’s tenant. */
            userId: string;
            /** @description What the user may do to the server; `read` is always included. Giving a grant again replaces its permissions. */
            permissions: ("read" | "power" | "console" | "credentials" | "snapshots" | "backups" | "rebuild" | "resize" | "firewall" | "rescue" | "delete")[];
        };
        IssuedInvitation: components["schemas"]["Invitation"] & {
            /** @description The one-time link (PUBLIC_URL, its token after `#`): in this answer only, never again. An invitation for the same email made later revokes this one. */
            url: string;
        };
        Invitation: {
            id: string;
            email: string;
            /**
             * @description The role the new user gets; null for an administrator’s invite of an existing user.
             * @enum {string|null}
             */
            role: "owner" | "member" | "viewer" | null;
            /** @enum {string} */
            status: "pending" | "accepted" | "expired" | "revoked";
            /** @description The user it made (or was for); null until accepted. */
            userId: string | null;
            createdBy: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            /** Format: date-time */
            acceptedAt: string | null;
            /** Format: date-time */
            revokedAt: string | null;
        };
        CreateInvitation: {
            /**
             * Format: email
             * @description Who the link is for: the user made on acceptance signs in with it.
             */
            email: string;
            /**
             * @description `owner`: users, tokens, webhooks, usage and every server of the tenant; `member`: creates servers, acts on their own and on those shared with them; `viewer`: reads only.
             * @enum {string}
             */
            role: "owner" | "member" | "viewer";
            /** @description How long the link works, at most 720 hours (30 days); INVITE_TTL_HOURS when left out. */
            expiresInHours?: number;
        };
        AuditEntry: {
            id: string;
            /** Format: date-time */
            at: string;
            /** @description Null when the system acted on its own (a workflow, the reconciler). */
            actor: {
                userId: string;
                email: string | null;
                /**
                 * @description How the actor signed the request: an API token or a console session; null when no request of theirs did it (an invitation accepted, a schedule, entries older than this field).
                 * @enum {string|null}
                 */
                via: "token" | "session" | null;
                /** @description The API token the request came with (its id and name, never its secret). */
                token: {
                    id: string;
                    name: string | null;
                } | null;
                /** @description The console session the request came with. */
                sessionId: string | null;
            } | null;
            /** @description The client address of the request that did it, as the API reads it behind TRUST_PROXY; null when no request did. */
            address: string | null;
            /** @description What happened, its outcome in its name: `instance.reboot`, `instance.reboot.succeeded`, `grant.revoked`, `console.closed`… */
            action: string;
            instanceId: string | null;
            /** @description Ids, roles, permissions, reasons and times: never a secret, nor where a server lives. */
            details: {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not ready: the failed checks are named */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4": string;
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminTenants: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tenant"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminTenants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenant"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tenant"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminTenantsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TenantDetail"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsers: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                tenantId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUser"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsersByIdTokens: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiToken"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersByIdTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateToken"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["IssuedToken"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersByIdTokensByTokenIdRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiToken"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersByIdDisable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersByIdEnable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSessions: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SignedIn"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SIGN_IN_LOCKED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE, SERVICE_BUSY */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSessionsCurrent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SignedIn"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSessionsCurrent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSessionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInvitationsAccept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInvite"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AcceptedInvite"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVITE_INVALID */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SIGN_IN_LOCKED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE, SERVICE_BUSY */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInvitesAccept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInvite"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AcceptedInvite"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVITE_INVALID */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SIGN_IN_LOCKED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE, SERVICE_BUSY */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Account"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAccountPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePassword"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SIGN_IN_LOCKED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_BUSY, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountTokens: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiToken"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAccountTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateToken"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["IssuedToken"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAccountTokensByIdRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiToken"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersByIdInvites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invite"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminUsersByIdPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPassword"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_BUSY, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminPlans: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only archived (true) or only current (false) objects. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminPlan"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePlan"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminPlan"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminImages: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only archived (true) or only current (false) objects. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminImage"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminImages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateImage"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminImage"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: IMAGE_STORAGE_REFUSED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminConnections: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only archived (true) or only current (false) objects. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminConnection"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateConnection"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminConnection"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT, CONNECTION_OVERLAP */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONNECTION_PRIVILEGES_MISSING, SNIPPETS_NOT_VISIBLE, UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminLocations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only archived (true) or only current (false) objects. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminLocation"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminLocations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateLocation"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminLocation"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminIpPools: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only archived (true) or only current (false) objects. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIpPool"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminIpPools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateIpPool"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIpPool"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePlan"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminPlan"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminImagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminImage"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, IMAGE_CLONE_IN_FLIGHT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminImagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateImage"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminImage"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminConnectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminConnectionDetail"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminConnectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConnection"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminConnection"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT, CONNECTION_OVERLAP */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONNECTION_PRIVILEGES_MISSING, SNIPPETS_NOT_VISIBLE, UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminLocationsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateLocation"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminLocation"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminIpPoolsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateIpPool"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIpPool"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminImagesByIdRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshImage"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminImage"];
                        meta: {
                            refreshed: boolean;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: ARCHIVED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminConnectionsByIdNodes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NodeSpec"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Node"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONNECTION_PRIVILEGES_MISSING */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminConnectionsByIdNodesByNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                node: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NODE_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminConnectionsByIdNodesByNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                node: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNode"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Node"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAdminConnectionsByIdVmidRange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VmidRange"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminConnection"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONNECTION_OVERLAP, VMID_RANGE_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlans: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Plan"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLocations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Location"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getImages: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Image"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstances: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                state?: "pending" | "scheduling" | "provisioning" | "running" | "starting" | "stopping" | "stopped" | "rebooting" | "resizing" | "rebuilding" | "migrating" | "deleting" | "deleted" | "failed" | "rollback_failed" | "rebuild_failed" | "lost" | "snapshotting" | "rolling_back" | "backing_up" | "restoring" | "updating_firewall" | "rescue" | "entering_rescue" | "leaving_rescue" | "configuring_boot" | "updating_network";
                /** @description `mine`: the servers you created or that were shared with you; `all` (the default): every server of your tenant you may read (a member: their own, those shared with them and those of the projects they have a role in). */
                scope?: "mine" | "all";
                /** @description Only this project's servers. */
                projectId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstances: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retrying with the same key and body replays the first answer instead of creating again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    planId: string;
                    /** @description Required with `imageId`; with `backupId` it defaults to the backup's location and must be it (else 422 UNSUPPORTED). */
                    locationId?: string;
                    /** @description The image to install. Send exactly one of `imageId` and `backupId`. */
                    imageId?: string;
                    /** @description Restore one of your backups as a new server instead of installing an image: the server starts as the backup's disk, with its own addresses, login and name. The backup must be `available` (409 BACKUP_NOT_RESTORABLE) and fit the plan's disk (422 PLAN_DISK_TOO_SMALL). Send exactly one of `imageId` and `backupId`. */
                    backupId?: string;
                    hostname: string;
                    username?: string;
                    sshKeys?: string[];
                    /** @description SSH keys saved on your account (`POST /v1/ssh-keys`), by id, handed to the server beside `sshKeys`. An id that is not one of your keys is 400 INVALID_INPUT (`details.fields["sshKeyIds.N"]`). */
                    sshKeyIds?: string[];
                    /** @description A #cloud-config YAML mapping, merged with the login and hostname the service sets (those keys are ours). Needs a location whose connection has a snippets storage (else 422 USER_DATA_UNSUPPORTED). */
                    userData?: string;
                    /** @enum {string} */
                    credentialType?: "PASSWORD" | "SSH_KEY" | "PASSWORD_AND_SSH_KEY" | "IMAGE_DEFINED";
                    /** @description The project of your tenant the server belongs to (default: the tenant's default project; a project token's own). Its restrictions and quota are checked in the create: 422 PROJECT_PLAN_NOT_ALLOWED, PROJECT_IMAGE_NOT_ALLOWED, PROJECT_LOCATION_NOT_ALLOWED, PROJECT_QUOTA_EXCEEDED. */
                    projectId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            /** @description The provisioning task: follow it on `GET /v1/tasks/{id}` or the server's event stream. */
                            taskId: string;
                            /**
                             * @description Set when an `Idempotency-Key` replayed an earlier create (status 200).
                             * @enum {boolean}
                             */
                            idempotent_replay?: true;
                        };
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            /** @description The provisioning task: follow it on `GET /v1/tasks/{id}` or the server's event stream. */
                            taskId: string;
                            /**
                             * @description Set when an `Idempotency-Key` replayed an earlier create (status 200).
                             * @enum {boolean}
                             */
                            idempotent_replay?: true;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT, BACKUP_NOT_RESTORABLE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: QUOTA_EXCEEDED, PROJECT_QUOTA_EXCEEDED, PROJECT_PLAN_NOT_ALLOWED, PROJECT_IMAGE_NOT_ALLOWED, PROJECT_LOCATION_NOT_ALLOWED, IMAGE_SSH_KEY_REQUIRED, IMAGE_LOGIN_METHOD_UNSUPPORTED, UNSUPPORTED, PLAN_DISK_TOO_SMALL */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CAPACITY_UNAVAILABLE, PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInstancesById: {
        parameters: {
            query?: {
                /** @description Keep the server's backups (they stay listed and count against the tenant); by default they are deleted with it. Protected and external backups are always kept. */
                keepBackups?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdEvents: {
        parameters: {
            query?: never;
            header?: {
                "Last-Event-ID"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdCredentialsReveal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Credential"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CREDENTIAL_ALREADY_REVEALED, CREDENTIAL_EXPIRED */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminInstancesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminInstance"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInstancesByIdRollbackRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminInstance"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInstancesByIdRollbackResolve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminInstance"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminQuarantinedVmids: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                connectionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["QuarantinedVmid"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminQuarantinedVmidsByIdRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["QuarantinedVmid"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminOrphans: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                status?: "open" | "destroying" | "destroyed" | "forgotten" | "gone";
                connectionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            connectionId: string;
                            node: string;
                            vmid: number;
                            name: string | null;
                            /** @description The instance named by the guest’s ownership marker (it may not exist). */
                            ownerInstanceId: string;
                            /** @enum {string} */
                            reason: "instance_missing" | "instance_deleted" | "instance_failed" | "other_vmid";
                            /** @enum {string} */
                            status: "open" | "destroying" | "destroyed" | "forgotten" | "gone";
                            workflowId: string | null;
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            /** Format: date-time */
                            resolvedAt: string | null;
                        }[];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminOrphansByIdDestroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            connectionId: string;
                            node: string;
                            vmid: number;
                            name: string | null;
                            /** @description The instance named by the guest’s ownership marker (it may not exist). */
                            ownerInstanceId: string;
                            /** @enum {string} */
                            reason: "instance_missing" | "instance_deleted" | "instance_failed" | "other_vmid";
                            /** @enum {string} */
                            status: "open" | "destroying" | "destroyed" | "forgotten" | "gone";
                            workflowId: string | null;
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            /** Format: date-time */
                            resolvedAt: string | null;
                        };
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminOrphansByIdForget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            connectionId: string;
                            node: string;
                            vmid: number;
                            name: string | null;
                            /** @description The instance named by the guest’s ownership marker (it may not exist). */
                            ownerInstanceId: string;
                            /** @enum {string} */
                            reason: "instance_missing" | "instance_deleted" | "instance_failed" | "other_vmid";
                            /** @enum {string} */
                            status: "open" | "destroying" | "destroyed" | "forgotten" | "gone";
                            workflowId: string | null;
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastSeenAt: string;
                            /** Format: date-time */
                            resolvedAt: string | null;
                        };
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminInstances: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                status?: "pending" | "scheduling" | "provisioning" | "running" | "starting" | "stopping" | "stopped" | "rebooting" | "resizing" | "rebuilding" | "migrating" | "deleting" | "deleted" | "failed" | "rollback_failed" | "rebuild_failed" | "lost" | "snapshotting" | "rolling_back" | "backing_up" | "restoring" | "updating_firewall" | "rescue" | "entering_rescue" | "leaving_rescue" | "configuring_boot" | "updating_network";
                tenantId?: string;
                connectionId?: string;
                node?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: (components["schemas"]["Instance"] & {
                            tenantId: string;
                            provider: {
                                connectionId: string;
                                node: string | null;
                                vmid: number | null;
                            };
                        })[];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInstancesByIdReconcile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminInstance"];
                        meta: {
                            /** @description Workflows of committed tasks that were never confirmed started. */
                            startedLate?: {
                                started: number;
                                alreadyStarted: number;
                            };
                            guests?: {
                                changedOutside: number;
                                undecided: number;
                                lost: number;
                                foundAgain: number;
                                orphansFound: number;
                                orphansGone: number;
                            };
                            /** @description Guests whose firewall was checked; of them, those changed outside and set back (`restored`), those brought to anti-spoofing for the first time (`converged`), those that could not be read (`undecided`). */
                            firewalls?: {
                                checked: number;
                                restored: number;
                                converged: number;
                                undecided: number;
                            };
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_PERMISSION_DENIED */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvents: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                type?: "instance.created" | "instance.scheduled" | "instance.running" | "instance.stopping" | "instance.stopped" | "instance.starting" | "instance.rebooting" | "instance.resizing" | "instance.resized" | "instance.rebuilding" | "instance.rebuilt" | "instance.migrating" | "instance.migrated" | "instance.deleting" | "instance.deleted" | "instance.failed" | "instance.lost" | "instance.changed_outside" | "instance.firewall_restored" | "instance.snapshotting" | "instance.rolling_back" | "instance.rolled_back" | "instance.backing_up" | "instance.restoring" | "instance.restored" | "instance.traffic_threshold" | "instance.throttled" | "instance.unthrottled" | "instance.updating_network" | "instance.updating_firewall" | "instance.firewall_updated" | "instance.boot_changing" | "instance.boot_changed" | "instance.rescue_entering" | "instance.rescue_entered" | "instance.rescue_leaving" | "instance.rescue_left" | "snapshot.created" | "snapshot.deleted" | "backup.created" | "backup.failed" | "backup.deleted" | "backup.lost" | "backup.found" | "user.invited" | "user.joined";
                instanceId?: string;
                /** @description Admins only: one tenant. */
                tenantId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InstanceEvent"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdStart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdStop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdShutdown: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdReboot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdResize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    planId: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, IN_RESCUE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: QUOTA_EXCEEDED, PROJECT_QUOTA_EXCEEDED, PROJECT_PLAN_NOT_ALLOWED, UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, CAPACITY_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdRebuild: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    imageId?: string;
                    /** @description The server's SSH keys from now on, with `sshKeyIds`; send neither to keep the keys it has. */
                    sshKeys?: string[];
                    /** @description SSH keys saved on your account (`POST /v1/ssh-keys`), by id, handed to the server beside `sshKeys`. An id that is not one of your keys is 400 INVALID_INPUT (`details.fields["sshKeyIds.N"]`). */
                    sshKeyIds?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, IN_RESCUE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: IMAGE_SSH_KEY_REQUIRED, IMAGE_LOGIN_METHOD_UNSUPPORTED, PROJECT_IMAGE_NOT_ALLOWED, UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdIso: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    isoId: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, IN_RESCUE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: ISO_NOT_AVAILABLE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInstancesByIdIso: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, IN_RESCUE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdBootOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description What the server boots from first after its next start or reboot.
                     * @enum {string}
                     */
                    first: "disk" | "cdrom";
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, IN_RESCUE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdRescue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, IN_RESCUE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RESCUE_UNAVAILABLE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInstancesByIdRescue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInstancesByIdMigrate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    node: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminInstance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, CAPACITY_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdSnapshots: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Snapshot"][];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdSnapshots: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    /** @description Also save a running server's RAM: a rollback then resumes it where it was. Takes longer and more space. */
                    includeMemory?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Snapshot"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS, CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SNAPSHOT_LIMIT_REACHED, SNAPSHOTS_UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdSnapshotsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Snapshot"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInstancesByIdSnapshotsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Snapshot"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdSnapshotsByNameRollback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SNAPSHOTS_UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdFirewall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Firewall"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putInstancesByIdFirewall: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the firewall this change was made on: a firewall changed since answers 412 PRECONDITION_FAILED. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FirewallUpdate"];
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Firewall"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PRECONDITION_FAILED */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FIREWALL_RULE_LIMIT */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFirewallGroups: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FirewallGroupSummary"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postFirewallGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FirewallGroupCreate"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FirewallGroup"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFirewallGroupsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FirewallGroup"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteFirewallGroupsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FIREWALL_GROUP_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchFirewallGroupsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FirewallGroupUpdate"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FirewallGroup"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FIREWALL_RULE_LIMIT */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProjects: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectCreate"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProjectsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteProjectsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROJECT_IN_USE, PROJECT_IS_DEFAULT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchProjectsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectUpdate"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putProjectsByIdMembersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectMemberUpdate"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ProjectMember"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteProjectsByIdMembersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdBackups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Backup"][];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdBackups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    notes?: string;
                    /** @description A protected backup cannot be deleted by its customer (409 BACKUP_PROTECTED); an operator can. */
                    protected?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Backup"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: BACKUP_LIMIT_REACHED, BACKUPS_UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBackupsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Backup"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteBackupsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Backup"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Backup"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS, BACKUP_PROTECTED, BACKUP_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postBackupsByIdRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Instance"];
                        meta: {
                            taskId: string | null;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, OPERATION_IN_PROGRESS, BACKUP_IN_PROGRESS, BACKUP_NOT_ON_HOST */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdBackupSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BackupSchedule"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putInstancesByIdBackupSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    frequency: "daily" | "weekly";
                    /**
                     * @description The time of day the backup starts, `HH:MM` in `timezone`.
                     * @example 03:30
                     */
                    time: string;
                    /**
                     * @description A name of the IANA time zone database (abbreviations such as PST are refused); daylight saving time is followed: a time the change skips runs at the change, a time that happens twice runs once, at its first occurrence.
                     * @example Europe/Berlin
                     */
                    timezone: string;
                    /**
                     * @description The day of a weekly backup; required for `weekly`, refused for `daily`.
                     * @enum {string}
                     */
                    weekday?: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
                    /** @description Scheduled backups kept: after a successful one, the oldest beyond this are deleted (protected and manual backups never). At most the plan's `backupLimit`. */
                    keepLast: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BackupSchedule"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE, CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: BACKUP_LIMIT_REACHED, BACKUPS_UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInstancesByIdBackupSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BackupSchedule"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description The server has no backup schedule (any more): nothing to remove */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIsos: {
        parameters: {
            query?: {
                /** @description Only the ISOs this server may mount: ready on its host. */
                instanceId?: string;
                locationId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Iso"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdRescueReveal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RescuePassword"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CREDENTIAL_ALREADY_REVEALED, CREDENTIAL_EXPIRED */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminIsos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIso"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminIsos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateIso"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIso"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminIsosById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIso"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminIsosById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIso"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminIsosByIdRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminIso"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdMetrics: {
        parameters: {
            query?: {
                /** @description The last hour (a point a minute), day or week, in the steps the cluster's Proxmox VE release keeps (9.x: a minute and 30 minutes; 8.x: 30 minutes and 3 hours); `stepSeconds` says which. */
                timeframe?: "hour" | "day" | "week";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InstanceMetrics"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdTraffic: {
        parameters: {
            query?: {
                /** @description `current`, or the billing period that begins in the month `YYYY-MM` (for a calendar-month plan: that month in UTC; for an anniversary plan: the server's period starting in it). */
                period?: "current" | string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InstanceTraffic"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInstancesByIdTrafficLift: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InstanceTraffic"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInstancesByIdTrafficAllowance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddTrafficAllowance"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InstanceTraffic"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsage: {
        parameters: {
            query: {
                /** @description The first hour (inclusive): a whole UTC hour, e.g. `2026-11-01T00:00:00Z`. */
                from: string;
                /** @description The end (exclusive); at most 366 days after `from`: a whole UTC hour, e.g. `2026-11-01T00:00:00Z`. */
                to: string;
                /** @description Admins only: one tenant. */
                tenantId?: string;
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description `csv`: every record of the range as `text/csv` (as `Accept: text/csv` asks), not paginated. */
                format?: "json" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UsageRecord"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query: {
                /** @description The first hour (inclusive): a whole UTC hour, e.g. `2026-11-01T00:00:00Z`. */
                from: string;
                /** @description The end (exclusive); at most 366 days after `from`: a whole UTC hour, e.g. `2026-11-01T00:00:00Z`. */
                to: string;
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description `csv`: every record of the range as `text/csv` (as `Accept: text/csv` asks), not paginated. */
                format?: "json" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UsageRecord"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdConsole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConsoleRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConsoleOffer"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INSTANCE_NOT_RUNNING, INSTANCE_BUSY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONSOLE_TYPE_UNAVAILABLE, CONSOLE_UNSUPPORTED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONSOLE_LIMIT, RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PROVIDER_UNAVAILABLE, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTasksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminTasksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminTask"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Admins only: one tenant. */
                tenantId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedWebhook"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                status?: "pending" | "succeeded" | "failed";
                instanceId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksByIdDeliveriesByDeliveryIdRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSshKeys: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SshKey"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSshKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSshKey"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SshKey"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: SSH_KEY_INVALID, INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SSH_KEY_EXISTS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SSH_KEY_TYPE_NOT_ALLOWED, QUOTA_EXCEEDED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSshKeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CSRF_TOKEN_INVALID */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsers: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantUser"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeTenantUser"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInstancesByIdGrants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Grant"][];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInstancesByIdGrants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateGrant"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Grant"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInstancesByIdGrantsByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvitations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invitation"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvitation"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["IssuedInvitation"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteInvitationsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invitation"];
                        meta: Record<string, never>;
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INVALID_STATE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAudit: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Opaque: `meta.nextCursor` of the previous page. */
                cursor?: string;
                /** @description Who acted. */
                userId?: string;
                instanceId?: string;
                action?: string;
                /** @description Entries at or after this time. */
                from?: string;
                /** @description Entries before this time. */
                to?: string;
                /** @description Admins only: one tenant. */
                tenantId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEntry"][];
                        meta: {
                            /** @description Set when more items remain. */
                            nextCursor?: string;
                        };
                    };
                };
            };
            /** @description Error: INVALID_INPUT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
