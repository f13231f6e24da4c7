import type { TooltipProps } from '@mui/material/Tooltip';
import { cloneElement, startTransition, useEffect, useState, type ComponentType, type ReactElement } from 'react';
import { loadChunk, registerLoader } from '../lib/lazy-page';

let loaded: ComponentType<TooltipProps> | undefined;
let loading: Promise<ComponentType<TooltipProps>> | undefined;

/** Loads MUI's Tooltip (with popper.js, ~11 kB gzipped) once for the whole page. */
function loadTooltip(): Promise<ComponentType<TooltipProps>> {
  return (loading ??= loadChunk(() => import('@mui/material/Tooltip')).then((m) => (loaded = m.default)));
}
registerLoader(loadTooltip);

/**
 * MUI's Tooltip, loaded from its own chunk once the page has drawn: a tooltip shows only on hover
 * or focus, so no page waits for it before its first paint (docs/performance.md, "First load"), and
 * the swap is a transition, drawn between frames.
 * Until it has loaded the child draws alone, carrying the name or description the closed tooltip
 * gives it (the `aria-label`, or with `describeChild` the `title`), so what a screen reader
 * announces does not change when it arrives.
 */
export function Tooltip(props: TooltipProps) {
  const [Loaded, setLoaded] = useState(() => loaded);
  useEffect(() => {
    if (Loaded) return;
    let live = true;
    // A transition: a page's tooltips (two or three per table row) all become MUI's at once, a
    // render that React now does in slices between frames instead of one long task right after the
    // page first draws (on the assignment page of a year group it held the main thread for 160 ms).
    void loadTooltip().then((component) => live && startTransition(() => setLoaded(() => component)));
    return () => {
      live = false;
    };
  }, [Loaded]);
  if (Loaded) return <Loaded {...props} />;
  const { children, title, describeChild = false } = props;
  const child = children as ReactElement<Record<string, unknown>>;
  const text = typeof title === 'string' && title !== '' ? title : undefined;
  const attr = describeChild ? 'title' : 'aria-label';
  return cloneElement(child, { [attr]: child.props[attr] ?? text });
}
