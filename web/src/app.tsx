import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, done, outcome, rememberSession, type SignedIn } from './api';
import { Loading } from './components/ui';
import { AccountPage } from './pages/account';
import { AuditPage } from './pages/audit';
import { AdminPages } from './pages/admin/index';
import { FirewallGroupsPage } from './pages/firewall-groups';
import { SerialConsolePage } from './pages/console/serial';
import { VncConsolePage } from './pages/console/vnc';
import { InvitePage } from './pages/invite';
import { NotFound } from './pages/not-found';
import { ProjectsPage } from './pages/projects';
import { ProjectChoiceProvider, ProjectSwitcher } from './project-choice';
import { ServerPage } from './pages/server';
import { CreateServerPage } from './pages/server-create';
import { ServersPage } from './pages/servers';
import { SignInPage } from './pages/sign-in';
import { TeamPage } from './pages/team';
import { isAdmin, SessionContext, useSession, type SessionState } from './session';

export function App() {
  return (
    <LocationProvider>
      <Shell />
    </LocationProvider>
  );
}

function Shell() {
  const location = useLocation();
  const [signedIn, setSignedIn] = useState<SignedIn | null | undefined>(undefined);
  const [notice, setNotice] = useState<string>();

  const forget = (message?: string) => {
    rememberSession(undefined);
    setSignedIn(null);
    setNotice(message);
  };

  useEffect(() => {
    rememberSession(undefined, () => forget('Your session has ended. Please sign in again.'));
    void outcome(api.GET('/v1/sessions/current')).then((answer) => {
      if (answer.ok) rememberSession(answer.data);
      setSignedIn(answer.ok ? answer.data : null);
    });
  }, []);

  if (location.path === '/invite') return <InvitePage />;
  if (signedIn === undefined) return <Loading what="the console" />;
  if (signedIn === null) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(session) => {
          rememberSession(session);
          setNotice(undefined);
          setSignedIn(session);
          if (location.path === '/' || location.path === '/login') location.route(session.user.role === 'admin' ? '/admin' : '/servers');
        }}
      />
    );
  }
  const state: SessionState = { signedIn, forget };
  // The guest console pages fill their own tab, without the navigation.
  if (location.path === '/console/vnc' || location.path === '/console/serial') {
    return location.path === '/console/vnc' ? <VncConsolePage /> : <SerialConsolePage />;
  }
  return (
    <SessionContext.Provider value={state}>
      <ProjectChoiceProvider key={signedIn.user.id} enabled={signedIn.user.role !== 'admin'}>
        <Layout>
          <Router>
            <Route path="/" component={Home} />
            <Route path="/login" component={Home} />
            <Route path="/servers" component={ServersPage} />
            <Route path="/servers/new" component={CreateServerPage} />
            <Route path="/servers/:id" component={ServerPage} />
            <Route path="/firewall-groups" component={FirewallGroupsPage} />
            <Route path="/projects" component={ProjectsPage} />
            <Route path="/team" component={TeamPage} />
            <Route path="/audit" component={AuditPage} />
            <Route path="/account" component={AccountPage} />
            <Route path="/admin/*" component={AdminPages} />
            <Route path="/admin" component={AdminPages} />
            <Route default component={NotFound} />
          </Router>
        </Layout>
      </ProjectChoiceProvider>
    </SessionContext.Provider>
  );
}

function Home() {
  const session = useSession();
  const location = useLocation();
  useEffect(() => location.route(isAdmin(session) ? '/admin' : '/servers', true), []);
  return null;
}

function Layout({ children }: { children: preact.ComponentChildren }) {
  const session = useSession();
  const { path } = useLocation();
  const link = (href: string, label: string) => (
    <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
      {label}
    </a>
  );
  const signOut = async () => {
    await done(api.DELETE('/v1/sessions/current'));
    session.forget('You are signed out.');
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          pvecp
        </a>
        <nav aria-label="Main">
          {isAdmin(session) ? link('/admin', 'Operations') : link('/servers', 'Servers')}
          {!isAdmin(session) && link('/projects', 'Projects')}
          {!isAdmin(session) && link('/firewall-groups', 'Firewall groups')}
          {!isAdmin(session) && link('/team', 'Team')}
          {session.signedIn.user.tenantRole === 'owner' && link('/audit', 'Audit log')}
          {link('/account', 'Account')}
        </nav>
        {!isAdmin(session) && <ProjectSwitcher />}
        <div class="who">
          <span class="muted">{session.signedIn.user.email}</span>
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">{children}</main>
    </>
  );
}
