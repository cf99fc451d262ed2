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
 * meanwhile (index.html preloads it, route-preload.ts). Its styles are in the page: the built
 * style sheet, with every language's fonts, is linked after that frame (drawn-styles.ts).
 */
function afterFirstFrame(): Promise<void> {
  if (!root.hasChildNodes()) return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

void afterFirstFrame()
  .then(() => {
    linkDrawnStylesheets(document);
    return import('./boot');
  })
  .then(({ boot }) => boot(root));
