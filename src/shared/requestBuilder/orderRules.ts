/**
 * The order rules moved to src/api/orderRules.ts (pure: importable by the webviews, a language
 * server and the sandbox alike). This re-export keeps the old import path working.
 */
export * from '../../api/orderRules';
