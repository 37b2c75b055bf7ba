import { exists, readText, testGate, type Detector } from "./files.js";

const GRADLE_FILES = ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"];

/**
 * Gradle: the wrapper when the project has one (it pins the Gradle version), else `gradle`. Per-test results come
 * from the JUnit XML reports Gradle's test task writes (the root project's and its subprojects').
 */
export const detectGradle: Detector = (root) => {
  if (!GRADLE_FILES.some((f) => exists(root, f))) return null;
  const gradle = exists(root, "gradlew") ? "./gradlew" : "gradle";
  return {
    ecosystem: "gradle",
    test: testGate(`${gradle} test --console=plain`, ["build/test-results/**/*.xml", "*/build/test-results/**/*.xml"]),
    checks: [],
  };
};

/**
 * Maven: `mvn -B -ntp -o test` (batch mode, no download progress: a readable log), `./mvnw` when the project has the
 * wrapper. Offline (`-o`) because gates run without network in the sandbox, where Maven resolving online fails
 * writing its locks into the read-only ~/.m2 even when everything is cached. Per-test results come from
 * surefire's JUnit XML reports, of the root and of each module.
 */
export const detectMaven: Detector = (root) => {
  const pom = readText(root, "pom.xml");
  if (pom === null) return null;
  const mvn = exists(root, "mvnw") ? "./mvnw" : "mvn";
  const reports = ["target/surefire-reports/*.xml", ...(/<modules>/.test(pom) ? ["*/target/surefire-reports/*.xml"] : [])];
  return { ecosystem: "maven", test: testGate(`${mvn} -B -ntp -o test`, reports), checks: [] };
};
