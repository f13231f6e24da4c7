import NotificationsNoneRounded from '@mui/icons-material/NotificationsNoneRounded';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import { useId, useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { useNotifications } from '../api/list-notifications';

const NotificationsPanel = lazyComponent(() => import('./NotificationsPanel').then((m) => m.NotificationsPanel));

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
  const open = (notifications.data ?? []).filter((n) => n.status === 'open');
  const count = open.length;
  const isOpen = Boolean(anchor);
  // The panel (MUI's Popover and the list's actions) loads the first time it opens.
  const [opened, setOpened] = useState(false);
  if (isOpen && !opened) setOpened(true);

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
      {opened && (
        <NotificationsPanel
          id={panelId}
          anchorEl={anchor}
          onClose={() => setAnchor(null)}
          notifications={open}
        />
      )}
    </>
  );
}
