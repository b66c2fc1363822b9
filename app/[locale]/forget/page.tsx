import { ForgetForm } from '@/components/account/forget-form';
import { clientPage } from '@/components/ui/client-page';

/** `/forget` (SPEC §2): ask for a password-reset code. */
export default clientPage(ForgetForm, ['Auth']);
