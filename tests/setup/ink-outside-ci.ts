// Ink decides at import time (is-in-ci) to draw only the final frame when CI is set, as it is in our CI run.
// yolo only ever chooses the live view with CI unset, so the view is tested that way: this runs before each
// test file's imports. Nothing else in the test process reads CI (e2e children get an explicit environment),
// except the PostgreSQL tests, which must fail rather than skip in CI: they read the copy kept here.
if (process.env.CI) process.env.YOLO_TEST_UNDER_CI = process.env.CI;
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
