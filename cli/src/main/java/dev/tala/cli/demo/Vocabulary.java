package dev.tala.cli.demo;

/**
 * The names the demo's commands are made of. Repeated entries weight the draw: most activity
 * is on prod and staging, on AWS more than GCP.
 */
final class Vocabulary {
    static final String[] SERVICES = {
        "api", "web", "payments", "checkout", "auth", "search", "inventory", "orders", "billing",
        "notifications", "gateway", "ledger", "recommendations", "users", "catalog", "shipping",
        "mailer", "scheduler", "reports", "media", "pricing", "fraud-detector", "session-store", "webhooks",
    };
    static final String[] ENVIRONMENTS = {"prod", "prod", "prod", "prod", "staging", "staging", "staging",
        "dev", "dev", "canary"};
    static final String[] CLOUDS = {"aws", "aws", "aws", "gcp", "gcp"};
    static final String[] AWS_REGIONS = {"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1",
        "ap-northeast-1"};
    static final String[] GCP_REGIONS = {"us-central1", "us-east4", "europe-west1", "europe-west4", "asia-east1"};
    static final String[] BUILD_TOOLS = {"mvn", "gradle", "make", "npm", "go", "cargo"};
    static final String[] BRANCHES = {"main", "main", "main", "main", "release/2024.11", "release/2025.02",
        "hotfix/timeout-retry", "hotfix/null-currency"};
    static final String[] ENGINEERS = {"alice", "bilal", "chen", "dana", "emeka", "farah", "gita", "hiro", "ines",
        "jonas", "kofi", "lena"};
    static final String[] ALERTS = {"HighErrorRate", "HighLatencyP99", "PodCrashLooping", "KubeDeploymentReplicasMismatch",
        "DiskPressure", "CertificateExpiringSoon", "PostgresReplicationLagHigh", "Http5xxSpike", "QueueBacklogGrowing",
        "OOMKilled"};
    static final String[] MIGRATIONS = {"add_index_orders_created_at", "split_address_columns", "add_currency_to_invoices",
        "backfill_user_locale", "drop_legacy_sessions", "create_outbox_table", "add_idempotency_key"};

    private Vocabulary() {
    }
}
