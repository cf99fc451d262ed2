import { NotificationHost } from '../components/notification-host';
import type { Notifications } from '../lib/notifications';
import { MuiRoot } from '../lib/mui-root';

/** The notifications' snackbar (MUI), loaded with the first notification (app.tsx). */
export default function NotificationLayer({ notifications }: { notifications: Notifications }) {
  return (
    <MuiRoot>
      <NotificationHost notifications={notifications} />
    </MuiRoot>
  );
}
