import { useEffect } from 'react';
import { useBrand } from './brand';

/** "<Title> · <Brand name>", or the brand's name alone. */
export function documentTitle(title: string, brandName: string): string {
  return title ? `${title} · ${brandName}` : brandName;
}

/** Sets `document.title` to "<Title> · <Brand name>". */
export function useDocumentTitle(title: string): void {
  const { name } = useBrand();
  useEffect(() => {
    document.title = documentTitle(title, name);
  }, [title, name]);
}
