import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/document-title';

export interface PageProps {
  /** Translated title: the page's only h1 and the start of `document.title`. */
  title: string;
  children?: ReactNode;
}

/**
 * The content of one screen; the layout around it provides the `<main>` landmark. Plain elements
 * (app/base.css): the login page shows it before MUI is loaded.
 */
export function Page({ title, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="hy-page-title">
        {title}
      </h1>
      {children}
    </section>
  );
}
