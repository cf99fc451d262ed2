import { createStore, type Store } from './store';

export type NotificationSeverity = 'success' | 'info' | 'warning' | 'error';

export interface AppNotification {
  id: number;
  /** Already translated text. */
  message: string;
  severity: NotificationSeverity;
}

export interface Notifications {
  store: Store<AppNotification[]>;
  notify(message: string, severity?: NotificationSeverity): number;
  dismiss(id: number): void;
  /** Hides every success notification (a new action started or failed: it is old news). */
  dismissSuccess(): void;
}

export function createNotifications(): Notifications {
  const store = createStore<AppNotification[]>([]);
  let nextId = 1;
  return {
    store,
    notify(message, severity = 'info') {
      const id = nextId++;
      store.set([...store.get(), { id, message, severity }]);
      return id;
    },
    dismiss(id) {
      store.set(store.get().filter((notification) => notification.id !== id));
    },
    dismissSuccess() {
      const queue = store.get();
      const kept = queue.filter((notification) => notification.severity !== 'success');
      if (kept.length !== queue.length) store.set(kept);
    },
  };
}
