import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { DragEvent, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { ItemKindMeta } from '../assignment-types';
import { KindChip, KindIcon } from './KindIcon';
import { ABOVE_ROW_LINK, ActionsMenu, type MenuAction } from '../../../components/ActionsMenu';

/** Drag payload type of an assignment row. */
export const ASSIGNMENT_DRAG_TYPE = 'application/x-markwell-assignment';

/** Props for {@link ItemRow}. */
export interface ItemRowProps {
  name: string;
  to: string;
  meta: ItemKindMeta;
  /** A short line under the name on wider screens ("3 submissions", "4 criteria"). */
  detail: string;
  updated: string;
  actions: MenuAction[];
  /** The id carried when the row is dragged onto a folder; rows without it cannot be dragged. */
  dragId?: string;
  onDragStart?: (id: string) => void;
  onDragEnd?: () => void;
  dragging?: boolean;
}

/**
 * A row of the library: kind icon, name (a link that covers the whole row), kind chip, last
 * update and an actions menu. On phones the chip and the date move under the name.
 */
export function ItemRow({ name, to, meta, detail, updated, actions, dragId, onDragStart, onDragEnd, dragging }: ItemRowProps) {
  const draggable = dragId !== undefined;
  return (
    <Box
      draggable={draggable || undefined}
      onDragStart={
        draggable
          ? (event: DragEvent) => {
              event.dataTransfer.setData(ASSIGNMENT_DRAG_TYPE, dragId);
              event.dataTransfer.effectAllowed = 'move';
              onDragStart?.(dragId);
            }
          : undefined
      }
      onDragEnd={draggable ? () => onDragEnd?.() : undefined}
      sx={{
        position: 'relative',
        display: 'grid',
        gridTemplateColumns: { xs: '36px minmax(0, 1fr) 40px', sm: '36px minmax(0, 1fr) 150px 120px 40px' },
        alignItems: 'center',
        columnGap: { xs: 1.5, sm: 2 },
        pl: 2,
        pr: 1,
        py: 1.25,
        opacity: dragging ? 0.5 : 1,
        cursor: draggable ? 'grab' : undefined,
        transition: 'background-color 120ms',
        '&:hover': { bgcolor: 'rgba(23, 97, 107, 0.04)' },
      }}
    >
      <KindIcon meta={meta} />
      <Box sx={{ minWidth: 0 }}>
        <Link
          component={RouterLink}
          to={to}
          draggable={false}
          underline="none"
          sx={{
            display: 'block',
            color: 'text.primary',
            fontWeight: 600,
            lineHeight: 1.4,
            overflowWrap: 'anywhere',
            '&::after': { content: '""', position: 'absolute', inset: 0 },
            '&:hover': { color: 'primary.dark' },
            '&:focus-visible': { outline: 'none' },
            '&:focus-visible::after': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2, borderRadius: '4px' },
          }}
        >
          {name}
        </Link>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5, mt: 0.25 }}>
          <Box sx={{ display: { xs: 'inline-flex', sm: 'none' } }}>
            <KindChip meta={meta} />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
            {detail}
          </Typography>
          {updated && (
            <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
              {updated}
            </Typography>
          )}
        </Box>
      </Box>
      <Box sx={{ display: { xs: 'none', sm: 'flex' }, minWidth: 0 }}>
        <KindChip meta={meta} />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
        {updated && <VisuallyHiddenPrefix>Updated </VisuallyHiddenPrefix>}
        {updated}
      </Typography>
      <ActionsMenu label={`Actions for ${name}`} actions={actions} buttonSx={ABOVE_ROW_LINK} />
    </Box>
  );
}

function VisuallyHiddenPrefix({ children }: { children: ReactNode }) {
  return (
    <Box
      component="span"
      sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}
    >
      {children}
    </Box>
  );
}

/** A list of rows in an outlined panel, with hairlines between rows. */
export function RowList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0, '& > li + li': { borderTop: 1, borderColor: 'divider' } }}>
      {children}
    </Box>
  );
}
