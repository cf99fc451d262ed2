import { useEffect } from 'react';
import { useBrand } from './brand';

/** Sets `document.title` to "<Title> · <Brand name>". */
export function useDocumentTitle(title: string): void {
  const { name } = useBrand();
  useEffect(() => {
    document.title = title ? `${title} · ${name}` : name;
  }, [title, name]);
}
