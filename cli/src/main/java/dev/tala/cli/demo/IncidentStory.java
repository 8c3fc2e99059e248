package dev.tala.cli.demo;

import static dev.tala.cli.demo.StepKind.HEALTH;
import static dev.tala.cli.demo.StepKind.MITIGATE;
import static dev.tala.cli.demo.StepKind.NOTIFY;
import static dev.tala.cli.demo.StepKind.QUERY;
import static dev.tala.cli.demo.StepKind.WRITEUP;

import dev.tala.core.model.IntentId;
import java.time.LocalDate;
import java.util.Locale;

/**
 * An incident: an alert fires (caused by a failed intent when there is one), the on-call is
 * paged, investigates (logs, pods, dashboards, the database; sometimes a second engineer looks
 * in parallel: a branch), mitigates (trying something else when that fails), verifies, resolves,
 * and writes a postmortem the next day.
 */
final class IncidentStory {
    private static final int MAX_MITIGATIONS = 3;

    private IncidentStory() {
    }

    /** @param cause the failed intent that set this off, or null for an incident out of the blue */
    static Plan plan(Setting s, SplitMix64 rnd, long startNs, IntentId cause) {
        Plan p = new Plan(rnd, startNs);
        String alert = rnd.pick(Vocabulary.ALERTS);
        String severity = s.isProd() ? "critical" : "warning";
        PlannedStep fired = p.add("amtool --alertmanager.url=http://alertmanager.monitoring:9093 alert add alertname="
                + alert + " service=" + s.service() + " env=" + s.env() + " region=" + s.region() + " severity="
                + severity, NOTIFY);
        if (cause != null) {
            fired.causedBy(cause);
        }
        String incident = "Q" + rnd.alnum(13).toUpperCase(Locale.ROOT);
        PlannedStep page = p.add("pd incident create --service " + s.service() + "-" + s.env() + " --title '" + alert
                + " on " + s.service() + " (" + s.env() + ")' --urgency high --assign " + s.engineer() + "@acme.io",
                NOTIFY).causedBy(fired);
        PlannedStep previous = p.add("pd incident ack --ids " + incident, NOTIFY).follows(page);
        int looks = rnd.between(2, 6);
        for (int i = 0; i < looks; i++) {
            PlannedStep look = p.add(investigation(s, rnd), QUERY);
            if (i == 0) {
                look.causedBy(page);
            } else if (rnd.chance(0.15)) {
                look.branchesFrom(page); // a second engineer joins and starts from the page
            } else {
                look.follows(previous);
            }
            previous = look;
        }
        PlannedStep mitigation = p.add(mitigation(s, rnd), MITIGATE).causedBy(previous);
        for (int i = 1; !mitigation.ok() && i < MAX_MITIGATIONS; i++) {
            mitigation = p.add(mitigation(s, rnd), MITIGATE).causedBy(mitigation);
        }
        PlannedStep verify = p.add(DeployStory.healthCheck(s, rnd), HEALTH).causedBy(mitigation);
        PlannedStep resolve = p.add("pd incident resolve --ids " + incident, NOTIFY).follows(verify);
        p.pause(StepKind.min(60 * 2), StepKind.min(60 * 30)); // the postmortem is written the next day
        LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(startNs, 86_400_000_000_000L));
        p.add("gh issue create --repo acme/postmortems --title 'Postmortem: " + alert + " on " + s.service() + " "
                + s.env() + " " + day + "' --label postmortem," + (s.isProd() ? "sev1" : "sev3") + " --assignee "
                + s.engineer(), WRITEUP).causedBy(resolve);
        return p;
    }

    private static String investigation(Setting s, SplitMix64 rnd) {
        String ns = s.env();
        String svc = s.service();
        return switch (rnd.nextInt(9)) {
            case 0 -> "kubectl -n " + ns + " logs deploy/" + svc + " --since=15m --tail=500 | grep -iE 'error|panic|timeout'";
            case 1 -> "kubectl -n " + ns + " get pods -l app=" + svc + " --field-selector=status.phase!=Running";
            case 2 -> "kubectl -n " + ns + " describe pod " + svc + "-" + rnd.hex(9) + "-" + rnd.alnum(5);
            case 3 -> "kubectl -n " + ns + " top pods -l app=" + svc + " --sort-by=memory";
            case 4 -> "grep -c '\" 50[0-9] ' /var/log/nginx/" + svc + "-access.log";
            case 5 -> "curl -s -H \"Authorization: Bearer $GRAFANA_TOKEN\" 'https://grafana.acme.internal/api/dashboards/uid/"
                    + svc + "-overview' | jq '.dashboard.panels[].title'";
            case 6 -> s.onAws()
                    ? "aws logs tail /ecs/" + svc + "-" + ns + " --since 30m --filter-pattern ERROR --region " + s.region()
                    : "gcloud logging read 'resource.labels.container_name=\"" + svc
                            + "\" AND severity>=ERROR' --freshness=30m --limit=200 --project acme-" + ns;
            case 7 -> "psql -h " + s.dbHost() + " -U readonly -d " + svc.replace('-', '_')
                    + " -c 'select state, count(*) from pg_stat_activity group by state'";
            default -> "kubectl -n " + ns + " get events --sort-by=.lastTimestamp --field-selector involvedObject.name="
                    + svc;
        };
    }

    private static String mitigation(Setting s, SplitMix64 rnd) {
        String ns = s.env();
        String svc = s.service();
        return switch (rnd.nextInt(7)) {
            case 0 -> "kubectl -n " + ns + " rollout undo deploy/" + svc;
            case 1 -> "kubectl -n " + ns + " scale deploy/" + svc + " --replicas=" + rnd.between(4, 24);
            case 2 -> "kubectl -n " + ns + " rollout restart deploy/" + svc;
            case 3 -> "helm rollback " + svc + " " + rnd.between(3, 140) + " -n " + ns + " --wait";
            case 4 -> "curl -fsS -X PATCH -H 'Content-Type: application/json' -d '{\"enabled\":false}' "
                    + "https://flags.acme.internal/api/v1/flags/" + svc + "-new-checkout-path";
            case 5 -> "psql -h " + s.dbHost() + " -U " + svc.replace('-', '_') + "_admin -d " + svc.replace('-', '_')
                    + " -c \"select pg_terminate_backend(pid) from pg_stat_activity where state = 'idle in transaction'"
                    + " and now() - state_change > interval '10 minutes'\"";
            default -> s.onAws()
                    ? "aws rds reboot-db-instance --db-instance-identifier " + svc + "-" + ns + " --region " + s.region()
                    : "gcloud sql instances restart " + svc + "-" + ns + " --project acme-" + ns + " --quiet";
        };
    }
}
