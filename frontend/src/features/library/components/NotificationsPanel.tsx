import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useCopySharedItem } from '../api/copy-shared-item';
import { useDismissNotification } from '../api/dismiss-notification';
import { assignmentTypeMeta, RUBRIC_META } from '../assignment-types';
import { formatRelative } from '../format';
import { pageReload } from '../page-reload';
import { stashPendingToast } from '../pending-toast';
import type { ShareNotification } from '../types';
import { KindIcon } from './KindIcon';

/** Props for {@link NotificationsPanel}. */
export interface NotificationsPanelProps {
  id: string;
  /** The bell it opens from; null when closed. */
  anchorEl: HTMLElement | null;
  onClose: () => void;
  /** The open notifications. */
  notifications: ShareNotification[];
}

/**
 * The bell's panel: what colleagues shared, each with "Copy to my library" and "Dismiss". Loaded
 * from its own chunk the first time the bell opens (docs/performance.md, "First load").
 */
export function NotificationsPanel({ id, anchorEl, onClose, notifications }: NotificationsPanelProps) {
  const titleId = useId();
  return (
    <Popover
      id={id}
      open={Boolean(anchorEl)}
      anchorEl={anchorEl}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: {
          variant: 'outlined',
          role: 'dialog',
          'aria-labelledby': titleId,
          sx: { mt: 0.5, width: 380, maxWidth: 'calc(100vw - 24px)', maxHeight: 'min(520px, calc(100dvh - 96px))' },
        },
      }}
    >
      <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <Typography id={titleId} component="h2" sx={{ fontWeight: 600 }}>
          Notifications
        </Typography>
      </Box>
      {notifications.length === 0 ? (
        <Box sx={{ px: 2, py: 3, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 500 }}>You&apos;re all caught up.</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            When a colleague shares an assignment or rubric with you, it shows up here.
          </Typography>
        </Box>
      ) : (
        <Box component="ul" aria-labelledby={titleId} sx={{ listStyle: 'none', m: 0, p: 0, '& > li + li': { borderTop: 1, borderColor: 'divider' } }}>
          {notifications.map((notification) => (
            <li key={notification._id}>
              <NotificationItem notification={notification} />
            </li>
          ))}
        </Box>
      )}
    </Popover>
  );
}

function NotificationItem({ notification }: { notification: ShareNotification }) {
  const copy = useCopySharedItem();
  const once = useSingleFlight({ lockAfterSuccess: true });
  const dismiss = useDismissNotification();
  const { showToast } = useToast();
  const isRubric = notification.kind === 'shared-rubric';
  const meta = isRubric ? RUBRIC_META : assignmentTypeMeta(notification.item.type ?? 'grade');
  const sender = notification.sender.name?.trim() || notification.sender.email;
  const busy = copy.isPending || copy.isSuccess || dismiss.isPending;

  // A double click copies once: a second call would be refused ("already copied") and its red
  // toast would hide the first call's success.
  const copyToLibrary = () =>
    void once(async () => {
      await copy.mutateAsync({ notification });
      const message = isRubric ? 'Rubric copied successfully' : 'Assignment copied successfully';
      showToast({ type: 'success', message });
      stashPendingToast('success', message);
      pageReload.reload();
    }).catch((error: unknown) => showToast({ type: 'error', message: errorMessage(error, "Couldn't copy it. Please try again.") }));

  return (
    <Box sx={{ display: 'flex', gap: 1.5, px: 2, py: 1.75 }}>
      <KindIcon meta={meta} size={32} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ fontWeight: 600 }}>
            {sender}
          </Box>{' '}
          shared{' '}
          <Box component="span" sx={{ fontWeight: 600 }}>
            {notification.item.name}
          </Box>{' '}
          with you
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.25 }}>
          {isRubric ? 'Rubric' : `${meta.label} assignment`}
          {notification.createdAt && ` · ${formatRelative(notification.createdAt)}`}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.25 }}>
          <Button size="small" variant="contained" onClick={copyToLibrary} loading={copy.isPending} disabled={busy && !copy.isPending}>
            Copy to my library
          </Button>
          <Button
            size="small"
            onClick={() =>
              dismiss.mutate(
                { notificationId: notification._id },
                { onError: (error) => showToast({ type: 'error', message: errorMessage(error, "Couldn't dismiss it. Please try again.") }) },
              )
            }
            loading={dismiss.isPending}
            disabled={busy && !dismiss.isPending}
          >
            Dismiss
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
