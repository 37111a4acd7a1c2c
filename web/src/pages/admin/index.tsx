import { Route, Router, useLocation } from 'preact-iso';
import { isAdmin, useSession } from '../../session';
import { NotFound, OperatorsOnly } from '../not-found';
import { ParkedPage } from './parked';
import { ServersAdminPage } from './servers';

const TABS = [
  ['/admin', 'Parked rollbacks'],
  ['/admin/servers', 'Servers'],
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
        <Route default component={NotFound} />
      </Router>
    </section>
  );
}
