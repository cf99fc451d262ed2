import { beforeEach, describe, expect, it } from 'vitest';
import { linkDrawnStylesheets, STYLESHEET_ATTRIBUTE } from './drawn-styles';

const HREF = '/assets/index-a1.css';

/** What the head holds, element by element. */
function headElements(): string[] {
  return [...document.head.children].map((element) =>
    `${element.tagName.toLowerCase()} ${element.getAttribute('href') ?? element.getAttribute(STYLESHEET_ATTRIBUTE) ?? ''}`.trim(),
  );
}

describe('the style sheets of a page the server drew', () => {
  beforeEach(() => {
    document.head.innerHTML =
      '<title>Connexion</title>' +
      `<style ${STYLESHEET_ATTRIBUTE}="${HREF}">.hy-page-title{font-size:2.125rem}</style>` +
      '<meta name="theme-color" content="#1976D2">';
  });

  it('links the sheet where the built index.html links it, and keeps the page’s rules after it', () => {
    linkDrawnStylesheets(document);
    expect(headElements()).toEqual(['title', `link ${HREF}`, 'style', 'meta']);
    const link = document.head.querySelector('link');
    expect(link?.rel).toBe('stylesheet');
    expect(link?.getAttribute('crossorigin')).toBe('');
    expect(document.head.querySelector('style')?.textContent).toBe(
      '.hy-page-title{font-size:2.125rem}',
    );
  });

  it('links it once, however often it is called', () => {
    linkDrawnStylesheets(document);
    linkDrawnStylesheets(document);
    expect(document.head.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(1);
  });

  it('links nothing the page links already', () => {
    document.head.insertAdjacentHTML('afterbegin', `<link rel="stylesheet" href="${HREF}">`);
    linkDrawnStylesheets(document);
    expect(document.head.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(1);
  });

  it('links nothing in a page the browser draws (index.html links its sheet)', () => {
    document.head.innerHTML = `<link rel="stylesheet" href="${HREF}"><title>Hygie</title>`;
    linkDrawnStylesheets(document);
    expect(headElements()).toEqual([`link ${HREF}`, 'title']);
  });
});
