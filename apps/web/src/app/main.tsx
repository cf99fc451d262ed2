import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import '@fontsource/noto-sans-arabic/400.css';
import '@fontsource/noto-sans-arabic/500.css';
import '@fontsource/noto-sans-arabic/700.css';
import './base.css';
import { boot } from './boot';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
void boot(container);
