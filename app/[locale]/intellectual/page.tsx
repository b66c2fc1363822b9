import { legalRoute } from '@/components/site/legal-page';

/** `/intellectual` (docs/rules.md#routes): ownership of the site and third-party credits. Static per locale; text in messages `Legal.intellectual`. */
const route = legalRoute('intellectual', '/intellectual/');

export default route.Page;
export const generateMetadata = route.generateMetadata;
