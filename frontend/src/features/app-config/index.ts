/** Deployment settings the browser shows, such as the demo model banner. */
export { DemoModelBanner } from './components/DemoModelBanner';
