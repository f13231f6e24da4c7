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

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * HTML written in the text (a teacher asking about `<title>`, a model quoting a tag) stays as the
 * characters typed: raw HTML nodes become text, which React escapes. Nothing of it is parsed as
 * markup, so nothing runs and nothing is silently dropped.
 */
function remarkHtmlAsText() {
  const walk = (node: MdNode, inline: boolean) => {
    if (!node.children) return;
    const inlineChildren = inline || node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell';
    node.children = node.children.map((child) => {
      if (child.type !== 'html') {
        walk(child, inlineChildren);
        return child;
      }
      // The editor writes a line break inside a table cell as <br>: it stays a line break.
      if (inlineChildren && /^<br\s*\/?>$/i.test(child.value ?? '')) return { type: 'break' };
      const text = { type: 'text', value: child.value ?? '' };
      return inlineChildren ? text : { type: 'paragraph', children: [text] };
    });
  };
  return (tree: MdNode) => walk(tree, false);
}

const remarkPlugins = [remarkGfm, remarkHtmlAsText];

/**
 * The markdown itself, through react-markdown with GitHub's flavour (remark-gfm): raw HTML shows
 * as the text it is (never markup), link and image addresses filtered. Its own chunk (~60 kB gzipped): see
 * {@link Markdown}, which draws it.
 */
export function MarkdownBody({ children }: { children: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} urlTransform={urlTransform} components={components}>
      {children}
    </ReactMarkdown>
  );
}
