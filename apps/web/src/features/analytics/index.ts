export { AnalyticsService, ConsoleAnalyticsSink, NullAnalyticsSink, PageViews } from './analytics.service';
export { PageViewTracker } from './page-view-tracker.view';
