package dev.tala.cli.demo;

import static dev.tala.cli.demo.StepKind.APPLY;
import static dev.tala.cli.demo.StepKind.CERT;
import static dev.tala.cli.demo.StepKind.DNS;
import static dev.tala.cli.demo.StepKind.MIGRATION;
import static dev.tala.cli.demo.StepKind.PACKAGE;
import static dev.tala.cli.demo.StepKind.PLAN;
import static dev.tala.cli.demo.StepKind.QUERY;

import java.time.LocalDate;
import java.util.Locale;

/**
 * Infrastructure work: terraform init / plan / apply (the apply depends on the plan; a failed
 * apply is retried, after releasing a stale state lock), then maybe a DNS record and a TLS
 * certificate for it, and maybe a database migration behind a backup (a failed migration on prod
 * pages someone; otherwise the backup is restored).
 */
final class ProvisioningStory {
    private ProvisioningStory() {
    }

    static Plan plan(Setting s, SplitMix64 rnd, long startNs) {
        Plan p = new Plan(rnd, startNs);
        PlannedStep last = null;
        if (rnd.chance(0.7)) {
            last = terraform(p, s, rnd);
            if (last == null) {
                return p;
            }
            if (rnd.chance(0.5)) {
                last = dnsAndCertificate(p, s, rnd, last);
            }
        }
        if (last == null || (last.ok() && rnd.chance(0.3))) {
            migrate(p, s, rnd, last, startNs);
        }
        return p;
    }

    /** @return the successful apply, or null when the narrative ends in failure */
    private static PlannedStep terraform(Plan p, Setting s, SplitMix64 rnd) {
        String tf = "terraform -chdir=infra/" + s.env() + "/" + s.service();
        PlannedStep init = p.add(tf + " init -input=false -backend-config=" + s.env() + ".backend.hcl", PLAN);
        if (!init.ok()) {
            return null;
        }
        PlannedStep plan = p.add(tf + " plan -input=false -out=tfplan -var-file=" + s.env() + ".tfvars", PLAN)
                .follows(init);
        if (!plan.ok()) {
            return null;
        }
        PlannedStep apply = p.add(tf + " apply -input=false -auto-approve tfplan", APPLY).dependsOn(plan);
        if (!apply.ok()) {
            if (rnd.chance(0.4)) {
                p.add(tf + " force-unlock -force " + rnd.hex(8) + "-" + rnd.hex(4) + "-" + rnd.hex(4) + "-"
                        + rnd.hex(4) + "-" + rnd.hex(12), QUERY).causedBy(apply);
            }
            apply = p.retry(apply);
        }
        return apply.ok() ? apply : null;
    }

    private static PlannedStep dnsAndCertificate(Plan p, Setting s, SplitMix64 rnd, PlannedStep apply) {
        String name = s.publicName();
        PlannedStep dns = p.add(s.onAws()
                ? "aws route53 change-resource-record-sets --hosted-zone-id Z" + rnd.alnum(13).toUpperCase(Locale.ROOT)
                        + " --change-batch file://dns/" + s.service() + "-" + s.env() + ".json"
                : "gcloud dns record-sets update " + name + ". --type=CNAME --ttl=300 --rrdatas=" + s.env()
                        + "-lb.acme.io. --zone=acme-" + s.env(), DNS).dependsOn(apply);
        if (!dns.ok()) {
            dns = p.retry(dns);
            if (!dns.ok()) {
                return dns;
            }
        }
        p.pause(StepKind.s(30), StepKind.min(5)); // propagation
        PlannedStep check = p.add("dig +short " + name + " @8.8.8.8", QUERY).causedBy(dns);
        if (!rnd.chance(0.6)) {
            return check;
        }
        PlannedStep cert = p.add(certificate(s, rnd), CERT).dependsOn(dns);
        if (!cert.ok()) {
            cert = p.retry(cert);
        }
        return cert;
    }

    private static String certificate(Setting s, SplitMix64 rnd) {
        String name = s.publicName();
        return switch (rnd.nextInt(3)) {
            case 0 -> "kubectl -n " + s.env() + " apply -f certs/" + s.service() + "-certificate.yaml && kubectl -n "
                    + s.env() + " wait --for=condition=Ready certificate/" + s.service() + "-tls --timeout=180s";
            case 1 -> "certbot certonly --dns-route53 -d " + name + " --non-interactive --agree-tos -m ops@acme.io";
            default -> s.onAws()
                    ? "aws acm request-certificate --domain-name " + name + " --validation-method DNS --region " + s.region()
                    : "gcloud certificate-manager certificates create " + s.service() + "-" + s.env() + "-cert --domains="
                            + name + " --project acme-" + s.env();
        };
    }

    private static void migrate(Plan p, Setting s, SplitMix64 rnd, PlannedStep after, long startNs) {
        String db = s.service().replace('-', '_');
        String dump = "/backups/" + s.service() + "-" + LocalDate.ofEpochDay(Math.floorDiv(startNs, 86_400_000_000_000L))
                + ".dump";
        PlannedStep backup = p.add("pg_dump -h " + s.dbHost() + " -U " + db + "_admin -Fc -f " + dump + " " + db,
                PACKAGE);
        if (after != null) {
            backup.follows(after);
        }
        if (!backup.ok()) {
            return;
        }
        String migration = switch (rnd.nextInt(3)) {
            case 0 -> "flyway -url=jdbc:postgresql://" + s.dbHost() + ":5432/" + db
                    + " -locations=filesystem:db/migration migrate";
            case 1 -> "psql -h " + s.dbHost() + " -U " + db + "_admin -d " + db + " -v ON_ERROR_STOP=1 -f migrations/V"
                    + rnd.between(20, 240) + "__" + rnd.pick(Vocabulary.MIGRATIONS) + ".sql";
            default -> "alembic -x env=" + s.env() + " upgrade head";
        };
        PlannedStep migrate = p.add(migration, MIGRATION).dependsOn(backup);
        if (migrate.ok()) {
            p.add("psql -h " + s.dbHost() + " -U readonly -d " + db
                    + " -c 'select version, success from flyway_schema_history order by installed_rank desc limit 5'",
                    QUERY).causedBy(migrate);
        } else if (s.isProd() && rnd.chance(0.5)) {
            migrate.triggersIncident = true;
        } else {
            p.add("pg_restore -h " + s.dbHost() + " -U " + db + "_admin --clean --if-exists -d " + db + " " + dump,
                    MIGRATION).causedBy(migrate).dependsOn(backup);
        }
    }
}
