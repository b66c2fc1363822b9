import { ResetForm } from '@/components/account/reset-form';
import { clientPage } from '@/components/ui/client-page';

/** `/reset` (SPEC §2): reset the password with the e-mailed code. */
export default clientPage(ResetForm, ['Auth']);
