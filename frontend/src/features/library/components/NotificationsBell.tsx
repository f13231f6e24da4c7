import NotificationsNoneRounded from '@mui/icons-material/NotificationsNoneRounded';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCopySharedItem } from '../api/copy-shared-item';
import { useDismissNotification } from '../api/dismiss-notification';
import { useNotifications } from '../api/list-notifications';
import { assignmentTypeMeta, RUBRIC_META } from '../assignment-types';
import { formatRelative } from '../format';
import { pageReload } from '../page-reload';
import { stashPendingToast } from '../pending-toast';
import type { ShareNotification } from '../types';
import { KindIcon } from './KindIcon';

/**
 * The notifications bell for the app bar: a badge with the number of open notifications (polled
 * every 30 s and when the tab regains focus) and a panel listing what colleagues shared, each with
 * "Copy to my library" and "Dismiss". A successful copy reloads the page (spec §4); its toast is
 * stashed in sessionStorage and shown after the reload by `usePendingToast`.
 */
export function NotificationsBell() {
  const notifications = useNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const panelId = useId();
  const titleId = useId();
  const open = (notifications.data ?? []).filter((n) => n.status === 'open');
  const count = open.length;
  const isOpen = Boolean(anchor);

  return (
    <>
      <IconButton
        aria-label={count > 0 ? `Notifications, ${count} new` : 'Notifications'}
        aria-haspopup="dialog"
        aria-controls={isOpen ? panelId : undefined}
        aria-expanded={isOpen ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ color: 'text.secondary' }}
      >
        {/* No hidden "0" in the button: its text would not be part of the name "Notifications". */}
        <Badge badgeContent={count || undefined} color="error" max={99}>
          <NotificationsNoneRounded />
        </Badge>
      </IconButton>
      <Popover
        id={panelId}
        open={isOpen}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
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
        {count === 0 ? (
          <Box sx={{ px: 2, py: 3, textAlign: 'center' }}>
            <Typography sx={{ fontWeight: 500 }}>You&apos;re all caught up.</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              When a colleague shares an assignment or rubric with you, it shows up here.
            </Typography>
          </Box>
        ) : (
          <Box component="ul" aria-labelledby={titleId} sx={{ listStyle: 'none', m: 0, p: 0, '& > li + li': { borderTop: 1, borderColor: 'divider' } }}>
            {open.map((notification) => (
              <li key={notification._id}>
                <NotificationItem notification={notification} />
              </li>
            ))}
          </Box>
        )}
      </Popover>
    </>
  );
}

function NotificationItem({ notification }: { notification: ShareNotification }) {
  const copy = useCopySharedItem();
  const dismiss = useDismissNotification();
  const { showToast } = useToast();
  const isRubric = notification.kind === 'shared-rubric';
  const meta = isRubric ? RUBRIC_META : assignmentTypeMeta(notification.item.type ?? 'grade');
  const sender = notification.sender.name?.trim() || notification.sender.email;
  const busy = copy.isPending || copy.isSuccess || dismiss.isPending;

  const copyToLibrary = () =>
    copy.mutate(
      { notification },
      {
        onSuccess: () => {
          const message = isRubric ? 'Rubric copied successfully' : 'Assignment copied successfully';
          showToast({ type: 'success', message });
          stashPendingToast('success', message);
          pageReload.reload();
        },
        onError: (error) => showToast({ type: 'error', message: errorMessage(error, "Couldn't copy it. Please try again.") }),
      },
    );

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
