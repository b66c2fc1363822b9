import { OutboxList } from '@/components/dashboard/outbox-list';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/dev/outbox`: development view of stored e-mails and SMS (the API answers 404 when DEV_OUTBOX is off). */
export default clientPage(OutboxList, ['Outbox']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('outbox');
