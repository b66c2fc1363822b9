import { legalRoute } from '@/components/site/legal-page';

/** `/cookie` (docs/rules.md#routes): the cookies used and the choice. Static per locale; text in messages `Legal.cookie`. */
const route = legalRoute('cookie', '/cookie/');

export default route.Page;
export const generateMetadata = route.generateMetadata;
