import { LoginForm } from '@/components/account/login-form';
import { clientPage } from '@/components/ui/client-page';

/** `/login` (SPEC §2): sign in; `?redirect=billing` leads to the billing page afterwards. */
export default clientPage(LoginForm, ['Auth']);
