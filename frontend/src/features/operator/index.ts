/**
 * Operator pages (issue 22): the provider check at /admin/model-check, which sends a small built-in
 * set of tasks through the configured AI provider and shows, per task, the mode that worked,
 * whether the answer followed the schema, latency, tokens, the cost per class and the first error
 * in plain words. Only operators (OPERATOR_EMAILS) get an answer from its API; everyone else 404.
 */
export { operatorRoutes } from './routes';
export { ModelCheckPage } from './components/ModelCheckPage';
