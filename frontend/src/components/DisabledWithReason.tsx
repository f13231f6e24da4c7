import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Tooltip } from './Tooltip';
import type { ReactNode } from 'react';

/** Props of {@link DisabledWithReason}. */
export interface DisabledWithReasonProps {
  /** Why the action is not available, shown as the button's tooltip and description. */
  reason: string;
  /** The button's icon. */
  startIcon?: ReactNode;
  /** The button's label. */
  children: ReactNode;
}

/**
 * An outlined button that is shown but cannot be used, with the reason in a tooltip that mouse,
 * keyboard and screen-reader users all reach: a disabled button gets no pointer or focus events,
 * so a focusable wrapper carries the tooltip.
 */
export function DisabledWithReason({ reason, startIcon, children }: DisabledWithReasonProps) {
  return (
    <Tooltip title={reason} describeChild>
      <Box component="span" tabIndex={0} sx={{ display: 'inline-flex', borderRadius: 1 }}>
        <Button variant="outlined" startIcon={startIcon} disabled>
          {children}
        </Button>
      </Box>
    </Tooltip>
  );
}
