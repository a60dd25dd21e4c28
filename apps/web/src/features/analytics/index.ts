export { AnalyticsService, PageViews } from './analytics.service';
export { AnalyticsSettings } from './analytics-settings';
export { KilnAnalyticsSink } from './kiln-analytics-sink';
export { PageViewTracker } from './page-view-tracker.view';
