import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from '../lib/document-title';

export interface PageProps {
  /** Translated title: the page's only h1 and the start of `document.title`. */
  title: string;
  children?: ReactNode;
}

/** The content of one screen; the layout around it provides the `<main>` landmark. */
export function Page({ title, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <Box component="section" aria-labelledby="page-title">
      <Typography id="page-title" variant="h4" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
