import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useMatches, type UIMatch } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { useSession } from '../lib/current-user';
import { useServices } from '../lib/services';
import { useStore } from '../lib/store';
import { clearChunkReload } from './chunk-reload';
import { SessionTimer } from './session-timer';
import { guard, type GuardLocation, type RouteMeta } from './guard';

/** What a route of the table carries in `handle`. */
export interface RouteHandle {
  name?: string;
  meta?: RouteMeta;
}

const META_FLAGS = [
  'anonymous',
  'anonymousOnly',
  'readableSignedIn',
  'admin',
  'alwaysOpen',
] as const satisfies (keyof RouteMeta)[];

function isRouteMeta(value: unknown): value is RouteMeta {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.entries(value).every(
      ([key, flag]) =>
        !META_FLAGS.some((known) => known === key) ||
        flag === undefined ||
        typeof flag === 'boolean',
    )
  );
}

/** A route's `handle` (typed `any` by react-router) as the table builds it. */
export function isRouteHandle(value: unknown): value is RouteHandle {
  if (typeof value !== 'object' || value === null) return false;
  const name = 'name' in value ? value.name : undefined;
  const meta = 'meta' in value ? value.meta : undefined;
  return (
    (name === undefined || typeof name === 'string') && (meta === undefined || isRouteMeta(meta))
  );
}

/** The marks of the deepest matched route that declares some. */
export function routeMetaOf(matches: readonly UIMatch[]): RouteMeta {
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle) && handle.meta) return handle.meta;
  }
  return {};
}

/** Remembers the last location the guard let through: the `from` of the next navigation. */
class NavigationMemory {
  private last: GuardLocation | null = null;
  get lastAllowed(): GuardLocation | null {
    return this.last;
  }
  remember(location: GuardLocation): void {
    this.last = location;
  }
}

/** Root route: applies the navigation guard to every location (spec §4). */
export function RootLayout() {
  const location = useLocation();
  const matches = useMatches();
  const session = useSession();
  const { biometricEnrolment, assuranceRequired } = useServices();
  const enrolling = useStore(biometricEnrolment);
  const requiredLevel = useStore(assuranceRequired);
  const [memory] = useState(() => new NavigationMemory());
  const { pathname, search } = location;

  const decision = guard({
    loading: session.loading,
    state: session.state,
    user: session.user,
    route: routeMetaOf(matches),
    biometricEnrolment: enrolling,
    assuranceRequired: requiredLevel,
    from: memory.lastAllowed,
    to: { pathname, search },
  });
  const allowed = decision.action === 'allow';

  useEffect(() => {
    if (!allowed) return;
    memory.remember({ pathname, search });
    clearChunkReload();
  }, [allowed, memory, pathname, search]);

  // Move focus to the new page's content after an in-app navigation to another page (not on first
  // load, and not when only the query changes: a page dropping a token from its address must not
  // take the focus from the field the user is typing in).
  const firstLoad = location.key === 'default';
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (!allowed) return;
    const moved = shownPath.current !== pathname;
    shownPath.current = pathname;
    if (firstLoad || !moved) return;
    document.getElementById('main-content')?.focus();
  }, [allowed, firstLoad, pathname]);

  if (decision.action === 'wait') return <LoadingScreen />;
  if (decision.action === 'redirect') return <Navigate to={decision.to} replace />;
  return (
    <>
      <Outlet />
      <SessionTimer />
    </>
  );
}
