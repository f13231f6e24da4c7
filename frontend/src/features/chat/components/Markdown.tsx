import Box from '@mui/material/Box';
import type { ComponentProps } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components, type UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** True for an image address the page may load: a `data:` image or a file of this origin. */
export function isAllowedImage(src: string): boolean {
  const trimmed = src.trim();
  if (/^data:image\//i.test(trimmed)) return true;
  try {
    const url = new URL(trimmed, window.location.href);
    return url.origin === window.location.origin && (url.protocol === 'http:' || url.protocol === 'https:');
  } catch {
    return false;
  }
}

/** Link addresses go through react-markdown's safe-protocol filter; images keep `data:` too. */
const urlTransform: UrlTransform = (url, key) => {
  if (key === 'src' && /^data:image\//i.test(url.trim())) return url;
  return defaultUrlTransform(url);
};

function Link({ node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

/** An image of this origin or a `data:` image; any other address shows as its alt text, never fetched. */
function Image({ node: _node, src, alt, ...props }: ComponentProps<'img'> & { node?: unknown }) {
  if (typeof src === 'string' && src !== '' && isAllowedImage(src)) {
    return <img {...props} src={src} alt={alt ?? ''} />;
  }
  return alt ? <span className="markdown-image-alt">[{alt}]</span> : null;
}

function Table({ node: _node, ...props }: ComponentProps<'table'> & { node?: unknown }) {
  return (
    <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
      <table {...props} />
    </Box>
  );
}

const components: Components = { a: Link, img: Image, table: Table };

const remarkPlugins = [remarkGfm];

/**
 * Renders markdown written by the teacher or the model (GitHub flavour: tables, task lists,
 * strikethrough). Raw HTML is dropped, never rendered; links open in a new tab without access to
 * this page; images from other sites are not loaded.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <Box
      className="markdown"
      sx={{
        minWidth: 0,
        overflowWrap: 'anywhere',
        '& > :first-of-type': { mt: 0 },
        '& > :last-child': { mb: 0 },
        '& p': { my: 1 },
        '& h1, & h2, & h3, & h4': { fontFamily: 'inherit', lineHeight: 1.3, mt: 2, mb: 1 },
        '& h1': { fontSize: '1.4rem' },
        '& h2': { fontSize: '1.2rem' },
        '& h3, & h4': { fontSize: '1.05rem' },
        '& ul, & ol': { pl: 3, my: 1 },
        '& pre': { overflowX: 'auto', p: 1.5, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.05)', maxWidth: '100%' },
        '& code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '0.875em' },
        '& table': { borderCollapse: 'collapse', my: 1 },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5, textAlign: 'left', verticalAlign: 'top' },
        '& img': { maxWidth: '100%', height: 'auto' },
        '& blockquote': { m: 0, my: 1, pl: 2, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' },
        '& a': { color: 'primary.main' },
      }}
    >
      <ReactMarkdown remarkPlugins={remarkPlugins} skipHtml urlTransform={urlTransform} components={components}>
        {children}
      </ReactMarkdown>
    </Box>
  );
}
