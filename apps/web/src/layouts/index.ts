// The seven layouts of SPEC §2. Each renders its child route through <Outlet/>.
export {
  AuthLayout,
  BuilderLayout,
  DefaultLayout,
  EmptyLayout,
  GradientLayout,
  GuestLayout,
  PreviewLayout,
} from './layouts';
export { LayoutFrame, MAIN_CONTENT_ID } from './layout-frame';
export { SiteFooter } from './site-footer';
export { SiteHeader } from './site-header';
