import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { ItemKindMeta } from '../assignment-types';

/** A tinted square with the item kind's icon, for the start of a row. */
export function KindIcon({ meta, size = 36 }: { meta: ItemKindMeta; size?: number }) {
  const { Icon } = meta;
  return (
    <Box
      aria-hidden="true"
      sx={{
        flex: '0 0 auto',
        width: size,
        height: size,
        borderRadius: '8px',
        display: 'grid',
        placeItems: 'center',
        bgcolor: meta.tint,
        color: meta.color,
      }}
    >
      <Icon sx={{ fontSize: size * 0.55 }} />
    </Box>
  );
}

/** A small tinted chip naming the item's kind ("Grade", "Rubric"). */
export function KindChip({ meta }: { meta: ItemKindMeta }) {
  return (
    <Chip
      label={meta.label}
      size="small"
      sx={{ bgcolor: meta.tint, color: meta.color, fontWeight: 600, height: 24, borderRadius: '6px', maxWidth: '100%' }}
    />
  );
}
