import { OutboxList } from '@/components/dashboard/outbox-list';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/dev/outbox`: development view of stored e-mails and SMS (the API answers 404 when DEV_OUTBOX is off). */
export default clientPage(OutboxList, ['Outbox']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
