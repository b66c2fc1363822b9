import { legalRoute } from '@/components/site/legal-page';

/** `/about-us` (docs/rules.md#routes): who runs the service. Static per locale; text in messages `Legal.aboutUs`. */
const route = legalRoute('aboutUs', '/about-us/');

export default route.Page;
export const generateMetadata = route.generateMetadata;
