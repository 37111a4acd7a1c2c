import { Route, Router, useLocation } from 'preact-iso';
import { isAdmin, useSession } from '../../session';
import { NotFound, OperatorsOnly } from '../not-found';
import { CatalogPage } from './catalog';
import { CleanupPage } from './cleanup';
import { ParkedPage } from './parked';
import { ServersAdminPage } from './servers';
import { TenantsPage } from './tenants';

const TABS = [
  ['/admin', 'Parked rollbacks'],
  ['/admin/servers', 'Servers'],
  ['/admin/catalog', 'Catalog'],
  ['/admin/tenants', 'Tenants and users'],
  ['/admin/cleanup', 'Orphans and VMIDs'],
] as const;

/** The operator pages; a customer who types their address gets a refusal, as the API would answer 403. */
export function AdminPages() {
  const session = useSession();
  const { path } = useLocation();
  if (!isAdmin(session)) return <OperatorsOnly />;
  return (
    <section>
      <nav aria-label="Operations" class="tabs">
        {TABS.map(([href, label]) => (
          <a href={href} aria-current={path === href ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <Router>
        <Route path="/" component={ParkedPage} />
        <Route path="/servers" component={ServersAdminPage} />
        <Route path="/catalog" component={CatalogPage} />
        <Route path="/tenants" component={TenantsPage} />
        <Route path="/cleanup" component={CleanupPage} />
        <Route default component={NotFound} />
      </Router>
    </section>
  );
}
