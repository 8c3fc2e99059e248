package dev.tala.cli.demo;

/**
 * Where a narrative happens and what it works on: one service in one environment and region,
 * at one version. Every intent of a narrative shares its setting, and so its context hash.
 */
record Setting(String service, String env, String cloud, String region, String otherRegion, String buildTool,
               String version, String sha, String branch, String engineer) {
    private static final long CONTEXT_SEED = 0xC0DE_C0DEL;

    static Setting draw(SplitMix64 rnd) {
        String service = rnd.pick(Vocabulary.SERVICES);
        String cloud = rnd.pick(Vocabulary.CLOUDS);
        String[] regions = cloud.equals("aws") ? Vocabulary.AWS_REGIONS : Vocabulary.GCP_REGIONS;
        // The region a service runs in is mostly its home region (stable per service), sometimes another.
        int home = (int) Long.remainderUnsigned(Hash64.of(1, service + cloud), regions.length);
        int region = rnd.chance(0.75) ? home : rnd.nextInt(regions.length);
        int other = (region + 1 + rnd.nextInt(regions.length - 1)) % regions.length;
        // A service is built with one tool, whatever the narrative.
        String tool = Vocabulary.BUILD_TOOLS[(int) Long.remainderUnsigned(Hash64.of(2, service),
                Vocabulary.BUILD_TOOLS.length)];
        String version = rnd.between(1, 4) + "." + rnd.between(0, 40) + "." + rnd.between(0, 25);
        return new Setting(service, rnd.pick(Vocabulary.ENVIRONMENTS), cloud, regions[region], regions[other], tool,
                version, rnd.hex(7), rnd.pick(Vocabulary.BRANCHES), rnd.pick(Vocabulary.ENGINEERS));
    }

    /** The context hash of every intent in the narrative: service, environment and region. */
    long contextHash() {
        return Hash64.of(CONTEXT_SEED, service + "/" + env + "/" + region);
    }

    boolean isProd() {
        return env.equals("prod");
    }

    boolean onAws() {
        return cloud.equals("aws");
    }

    String tag() {
        return "v" + version;
    }

    String host() {
        return service + "." + env + ".acme.internal";
    }

    String publicName() {
        return service + "." + env + ".acme.io";
    }

    String dbHost() {
        return service + "-db." + env + ".acme.internal";
    }

    String cluster() {
        return env + "-" + region;
    }

    String image() {
        String registry = onAws() ? "123456789012.dkr.ecr." + region + ".amazonaws.com/"
                : region + "-docker.pkg.dev/acme-" + env + "/containers/";
        return registry + service + ":" + version;
    }
}
