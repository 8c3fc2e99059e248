package dev.tala.cli.demo;

import static dev.tala.cli.demo.StepKind.GIT;
import static dev.tala.cli.demo.StepKind.HEALTH;
import static dev.tala.cli.demo.StepKind.NOTIFY;
import static dev.tala.cli.demo.StepKind.PACKAGE;
import static dev.tala.cli.demo.StepKind.PUSH;
import static dev.tala.cli.demo.StepKind.ROLLOUT;
import static dev.tala.cli.demo.StepKind.TEST;

/**
 * A deploy: build the image, integration tests (retried when flaky), push, roll out (which
 * depends on the push; sometimes a second region branches off the push), health check. A failed
 * rollout or health check is rolled back and, mostly on prod, pages someone: the run then starts
 * an {@link IncidentStory} whose alert points at the failure.
 */
final class DeployStory {
    private DeployStory() {
    }

    static Plan plan(Setting s, SplitMix64 rnd, long startNs) {
        Plan p = new Plan(rnd, startNs);
        PlannedStep build = p.add(buildImage(s, rnd), PACKAGE);
        if (!build.ok()) {
            return p;
        }
        PlannedStep test = p.add(integrationTest(s, rnd), TEST).causedBy(build);
        if (!test.ok()) {
            test = p.retry(test);
            if (!test.ok()) {
                return p;
            }
        }
        PlannedStep push = p.add("docker push " + s.image(), PUSH).causedBy(test).dependsOn(build);
        if (!push.ok()) {
            push = p.retry(push);
            if (!push.ok()) {
                return p;
            }
        }
        Rollout mechanism = Rollout.choose(s, rnd);
        PlannedStep rollout = p.add(mechanism.deploy(s, s.region()), ROLLOUT).dependsOn(push);
        PlannedStep lastStep = rollout;
        if (rollout.ok() && mechanism.needsStatusWait()) {
            lastStep = p.add("kubectl -n " + s.env() + " rollout status deploy/" + s.service() + " --timeout=300s",
                    ROLLOUT).causedBy(rollout);
        }
        if (lastStep.ok() && rnd.chance(0.12)) {
            // A second region rolled out in parallel from the same image: a branch of the narrative.
            lastStep = p.add(mechanism.deploy(s, s.otherRegion()), ROLLOUT).branchesFrom(push).follows(lastStep);
        }
        if (!lastStep.ok()) {
            return rollBack(p, s, mechanism, lastStep);
        }
        PlannedStep health = p.add(healthCheck(s, rnd), HEALTH).causedBy(lastStep);
        if (!health.ok() && rnd.chance(0.5)) {
            health = p.retry(health); // a second look before declaring the deploy bad
        }
        if (!health.ok()) {
            return rollBack(p, s, mechanism, health);
        }
        if (rnd.chance(0.35)) {
            p.add("git tag -a " + s.tag() + " -m 'Release " + s.tag() + "' && git push origin " + s.tag(), GIT)
                    .follows(health);
        } else if (rnd.chance(0.3)) {
            p.add("curl -fsS -X POST -H 'Content-Type: application/json' -d '{\"text\":\"" + s.service() + " "
                    + s.tag() + " deployed to " + s.env() + "\"}' https://hooks.slack.com/services/T0ACME/B0DEPLOY/"
                    + rnd.alnum(12), NOTIFY).follows(health);
        }
        return p;
    }

    private static Plan rollBack(Plan p, Setting s, Rollout mechanism, PlannedStep failure) {
        SplitMix64 rnd = p.random();
        failure.triggersIncident = s.isProd() ? rnd.chance(0.6) : rnd.chance(0.1);
        PlannedStep rollback = p.add(mechanism.rollback(s, rnd), ROLLOUT).causedBy(failure);
        p.add(healthCheck(s, rnd), HEALTH).causedBy(rollback);
        return p;
    }

    private static String buildImage(Setting s, SplitMix64 rnd) {
        return rnd.chance(0.7)
                ? "docker build -t " + s.image() + " --build-arg GIT_SHA=" + s.sha() + " -f deploy/Dockerfile ."
                : "docker buildx build --platform linux/amd64,linux/arm64 -t " + s.image() + " --build-arg GIT_SHA="
                        + s.sha() + " .";
    }

    private static String integrationTest(Setting s, SplitMix64 rnd) {
        return switch (rnd.nextInt(3)) {
            case 0 -> "make test-integration SERVICE=" + s.service() + " ENV=" + s.env();
            case 1 -> "docker compose -f deploy/compose.test.yml run --rm " + s.service() + "-it";
            default -> "pytest tests/integration -k " + s.service().replace('-', '_') + " -x -q --maxfail=1";
        };
    }

    static String healthCheck(Setting s, SplitMix64 rnd) {
        return switch (rnd.nextInt(3)) {
            case 0 -> "curl -fsS --max-time 5 https://" + s.host() + "/healthz";
            case 1 -> "curl -fsS -o /dev/null -w '%{http_code}' --max-time 5 https://" + s.host() + "/readyz";
            default -> "kubectl -n " + s.env() + " get pods -l app=" + s.service() + " -o wide";
        };
    }

    /** How a service is rolled out, and so how it is rolled back. */
    enum Rollout {
        KUBECTL, HELM, CLOUD_RUN, ECS;

        static Rollout choose(Setting s, SplitMix64 rnd) {
            return switch (rnd.nextInt(3)) {
                case 0 -> KUBECTL;
                case 1 -> HELM;
                default -> s.onAws() ? ECS : CLOUD_RUN;
            };
        }

        boolean needsStatusWait() {
            return this == KUBECTL;
        }

        String deploy(Setting s, String region) {
            String svc = s.service();
            return switch (this) {
                case KUBECTL -> "kubectl --context " + s.env() + "-" + region + " -n " + s.env() + " set image deploy/"
                        + svc + " " + svc + "=" + s.image();
                case HELM -> "helm upgrade --install " + svc + " charts/" + svc + " -n " + s.env() + " --set image.tag="
                        + s.version() + " --wait --timeout 10m --kube-context " + s.env() + "-" + region;
                case CLOUD_RUN -> "gcloud run deploy " + svc + " --image " + s.image() + " --region " + region
                        + " --project acme-" + s.env() + " --quiet";
                case ECS -> "aws ecs update-service --cluster " + s.env() + "-" + region + " --service " + svc
                        + " --force-new-deployment --region " + region;
            };
        }

        String rollback(Setting s, SplitMix64 rnd) {
            String svc = s.service();
            return switch (this) {
                case KUBECTL -> "kubectl -n " + s.env() + " rollout undo deploy/" + svc;
                case HELM -> "helm rollback " + svc + " " + rnd.between(3, 140) + " -n " + s.env() + " --wait";
                case CLOUD_RUN -> "gcloud run services update-traffic " + svc + " --to-revisions=" + svc + "-"
                        + String.format("%05d", rnd.between(1, 400)) + "-" + rnd.alnum(3) + "=100 --region " + s.region();
                case ECS -> "aws ecs update-service --cluster " + s.cluster() + " --service " + svc
                        + " --task-definition " + svc + ":" + rnd.between(10, 300) + " --region " + s.region();
            };
        }
    }
}
