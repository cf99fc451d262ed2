import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import '@fontsource/noto-sans-arabic/400.css';
import '@fontsource/noto-sans-arabic/500.css';
import '@fontsource/noto-sans-arabic/700.css';
import './base.css';
import { linkDrawnStylesheets } from './drawn-styles';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = container;

/**
 * A page the server drew (server-render.tsx) is painted before the client's code is evaluated:
 * the browser would otherwise hold its first frame until all of it has run. The code is fetched
 * meanwhile (the page preloads it, route-preload.ts). Its styles are in the page: the built
 * style sheet, with every language's fonts, is linked after that frame (drawn-styles.ts). Such a
 * page is the login page's island (island/start.tsx), which loads the whole client later.
 */
function afterFirstFrame(): Promise<void> {
  if (!root.hasChildNodes()) return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

void afterFirstFrame().then(async () => {
  if (!root.hasChildNodes()) {
    const { boot } = await import('./boot');
    return boot(root);
  }
  linkDrawnStylesheets(document);
  const { startIsland } = await import('./island/start');
  return startIsland(root);
});
