/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' sends analytics from localhost too (SPEC §5: skipped on localhost unless enabled). */
  readonly VITE_ANALYTICS_ON_LOCALHOST?: string;
}
