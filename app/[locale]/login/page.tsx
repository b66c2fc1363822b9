import { LoginForm } from '@/components/account/login-form';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/login` (docs/rules.md#routes): sign in; `?redirect=billing` leads to the billing page afterwards. */
export default clientPage(LoginForm, ['Auth']);

/** Its own tab title, and the canonical URL and hreflang of an indexed page. */
export const generateMetadata = titled('login', '/login/');
