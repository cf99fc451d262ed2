import { describe, it } from 'vitest';
import { A11Y_VARIANTS } from '../test/a11y';
import { makeUser } from '../test/factories';
import { expectWellFormedScreen } from '../test/screen-check';
import { SECURITY_SCREEN_HANDLERS } from '../test/stages';
import { routeEntries, type RouteEntry } from './routes';

// Every screen of the route table, on a plain visit, in every language and brand (spec §2, §9).

const SCREENS = routeEntries().filter((entry) => !['security', 'not-found'].includes(entry.name));

/** A visitor the route is open to: an admin for admin routes, a patient for signed-in ones. */
function visitorFor(entry: RouteEntry) {
  if (entry.meta.anonymous || entry.meta.anonymousOnly) return null;
  return makeUser(entry.meta.admin ? { roles: ['admin'] } : {});
}

describe.each(A11Y_VARIANTS)('every screen in $language with the $brand brand', (variant) => {
  it.each(SCREENS.map((entry) => [entry.path, entry] as const))(
    `%s renders one h1 in a <main>, its title${variant.axe ? ', and passes axe' : ''}`,
    (path, entry) =>
      expectWellFormedScreen(
        { name: path, path, user: visitorFor(entry), handlers: SECURITY_SCREEN_HANDLERS },
        variant,
      ),
  );
});
