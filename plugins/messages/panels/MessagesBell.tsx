import { Button, Tag } from '@blueprintjs/core';
import { useNavigate } from '@decisio/sdk-plugin';
import { messagesApi } from '../api';
import { useMessagesT } from '../i18n';

/** How often the unread count is asked again, ms. */
export const UNREAD_POLL_MS = 60_000;

/** The header's bell: the unread count; a click opens `/user-center/message`. */
export function MessagesBell() {
  const { t } = useMessagesT();
  const navigate = useNavigate();
  const unread = messagesApi.endpoints['messages/unread'].useQuery(undefined, { pollingInterval: UNREAD_POLL_MS });
  const count = unread.data?.unread ?? 0;
  const label = count > 0 ? t('bell', { count }) : t('bellNone');
  return (
    <Button variant="minimal" icon="notifications" aria-label={label} title={label} onClick={() => navigate('/user-center/message')} data-testid="messages-bell">
      {count > 0 && (
        <Tag round intent="danger" minimal={false} data-testid="messages-unread">
          {count > 99 ? '99+' : count}
        </Tag>
      )}
    </Button>
  );
}
