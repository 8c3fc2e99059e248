package dev.tala.cli.demo;

import static dev.tala.cli.demo.StepKind.COMPILE;
import static dev.tala.cli.demo.StepKind.GIT;
import static dev.tala.cli.demo.StepKind.PACKAGE;
import static dev.tala.cli.demo.StepKind.PUSH;
import static dev.tala.cli.demo.StepKind.TEST;

/**
 * A CI build: checkout, compile, unit tests (flaky: retried up to twice), package, publish. A
 * broken compile or tests that keep failing end the narrative in failure.
 */
final class BuildStory {
    private static final int TEST_ATTEMPTS = 3;

    private BuildStory() {
    }

    static Plan plan(Setting s, SplitMix64 rnd, long startNs) {
        Plan p = new Plan(rnd, startNs);
        PlannedStep checkout = p.add(checkout(s, rnd), GIT);
        if (!checkout.ok()) {
            checkout = p.retry(checkout);
            if (!checkout.ok()) {
                return p;
            }
        }
        PlannedStep compile = p.add(compile(s), COMPILE).follows(checkout);
        if (!compile.ok()) {
            return p;
        }
        PlannedStep test = p.add(test(s, rnd), TEST).causedBy(compile);
        for (int attempt = 1; !test.ok() && attempt < TEST_ATTEMPTS; attempt++) {
            test = p.retry(test);
        }
        if (!test.ok()) {
            return p;
        }
        PlannedStep pkg = p.add(packageCommand(s), PACKAGE).causedBy(test).dependsOn(compile);
        if (!pkg.ok()) {
            return p;
        }
        PlannedStep publish = p.add(publish(s), PUSH).dependsOn(pkg);
        if (!publish.ok()) {
            p.retry(publish);
        }
        return p;
    }

    private static String checkout(Setting s, SplitMix64 rnd) {
        return switch (rnd.nextInt(3)) {
            case 0 -> "git clone --depth 50 git@github.com:acme/" + s.service() + ".git && cd " + s.service()
                    + " && git checkout " + s.sha();
            case 1 -> "git fetch origin " + s.branch() + " && git checkout " + s.sha();
            default -> "git checkout -B " + s.branch() + " origin/" + s.branch()
                    + " && git submodule update --init --recursive";
        };
    }

    private static String compile(Setting s) {
        String svc = s.service();
        return switch (s.buildTool()) {
            case "mvn" -> "mvn -B -q -T 1C compile -pl " + svc + "-server -am";
            case "gradle" -> "./gradlew :" + svc + ":compileJava --parallel --build-cache";
            case "make" -> "make -j8 build SERVICE=" + svc;
            case "npm" -> "npm ci --prefer-offline && npm run build --workspace=" + svc;
            case "go" -> "go build -trimpath -ldflags \"-X main.version=" + s.version() + "\" -o bin/" + svc
                    + " ./cmd/" + svc;
            default -> "cargo build --release --locked -p " + svc;
        };
    }

    private static String test(Setting s, SplitMix64 rnd) {
        String svc = s.service();
        String command = switch (s.buildTool()) {
            case "mvn" -> "mvn -B test -pl " + svc + "-server -Dsurefire.rerunFailingTestsCount=0";
            case "gradle" -> "./gradlew :" + svc + ":test --tests '*Test' -PmaxParallelForks=4";
            case "make" -> "make test SERVICE=" + svc + " TEST_FLAGS=-race";
            case "npm" -> "npm test --workspace=" + svc + " -- --ci --maxWorkers=4";
            case "go" -> "go test -race -count=1 ./internal/" + svc + "/...";
            default -> "cargo test --locked -p " + svc + " -- --test-threads=4";
        };
        return rnd.chance(0.3) ? "timeout 15m " + command : command;
    }

    private static String packageCommand(Setting s) {
        String svc = s.service();
        return switch (s.buildTool()) {
            case "mvn" -> "mvn -B -q package -DskipTests -pl " + svc + "-server";
            case "gradle" -> "./gradlew :" + svc + ":bootJar -x test";
            case "make" -> "make dist SERVICE=" + svc + " VERSION=" + s.version();
            case "npm" -> "npm pack --workspace=" + svc;
            default -> "tar -czf dist/" + svc + "-" + s.version() + "-linux-amd64.tar.gz -C bin " + svc;
        };
    }

    private static String publish(Setting s) {
        String svc = s.service();
        String artifact = "dist/" + svc + "-" + s.version() + "-linux-amd64.tar.gz";
        return switch (s.buildTool()) {
            case "mvn" -> "mvn -B deploy -DskipTests -pl " + svc
                    + "-server -DaltDeploymentRepository=releases::https://nexus.acme.internal/repository/releases";
            case "gradle" -> "./gradlew :" + svc + ":publish -Pversion=" + s.version();
            case "npm" -> "npm publish --workspace=" + svc + " --tag " + (s.branch().equals("main") ? "latest" : "next");
            default -> s.onAws()
                    ? "aws s3 cp " + artifact + " s3://acme-artifacts/" + svc + "/" + s.version() + "/ --only-show-errors"
                    : "gsutil -q cp " + artifact + " gs://acme-artifacts/" + svc + "/" + s.version() + "/";
        };
    }
}
