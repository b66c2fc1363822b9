import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { Namespace, type INamespace } from 'kubernetes-models/v1/Namespace';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job, type IJob } from 'kubernetes-models/batch/v1/Job';
import {
  HorizontalPodAutoscaler,
  type IHorizontalPodAutoscaler,
} from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IIoK8sApiCoreV1Container as Container } from 'kubernetes-models/v1/Container';
import type { IIoK8sApiCoreV1PodSpec as PodSpec } from 'kubernetes-models/v1/PodSpec';

// The Kubernetes manifests of deploy/k8s (docs/deploy.md, "Kubernetes"), checked as written, without rendering them
// and without a cluster: each core object against the Kubernetes API schemas (kubernetes-models), the CloudNativePG
// objects against the fields CloudNativePG's API reference requires, the Kustomize files against the files they name,
// and the choices the deployment depends on (probes, streaming through ingress-nginx, the autoscaler's metric, the
// database URLs, no secret committed).

const ROOT = path.resolve(import.meta.dirname, '..');
const K8S = path.join(ROOT, 'deploy/k8s');

type Meta = {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type K8sObject = { apiVersion?: string; kind?: string; metadata?: Meta; [key: string]: unknown };
type Loaded = { file: string; object: K8sObject };

type Kustomization = {
  resources?: string[];
  patches?: { path?: string; patch?: string; target?: { kind?: string; name?: string } }[];
  secretGenerator?: { name: string; envs?: string[]; files?: string[]; type?: string }[];
  configMapGenerator?: { name: string; envs?: string[]; files?: string[] }[];
  images?: { name: string; newName?: string; newTag?: string }[];
};

/** CloudNativePG's Cluster (postgresql.cnpg.io/v1), the fields used here (cloudnative-pg.io, "API Reference"). */
type CnpgCluster = {
  spec: {
    instances: number;
    imageName?: string;
    storage?: { size?: string };
    bootstrap?: { initdb?: { database?: string; owner?: string; secret?: { name?: string } } };
    managed?: {
      roles?: {
        name: string;
        ensure?: string;
        login?: boolean;
        superuser?: boolean;
        passwordSecret?: { name?: string };
      }[];
    };
  };
};
/** CloudNativePG's Pooler (postgresql.cnpg.io/v1): `cluster` and `pgbouncer` are required (API Reference, PoolerSpec). */
type CnpgPooler = {
  spec: {
    cluster: { name: string };
    instances?: number;
    type?: string;
    pgbouncer: { poolMode?: string; parameters?: Record<string, string> };
  };
};

/** Every YAML file under deploy/k8s, relative to it. */
function yamlFiles(): string[] {
  return (readdirSync(K8S, { recursive: true }) as string[])
    .filter((f) => /\.ya?ml$/.test(f) && statSync(path.join(K8S, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

/** The documents of one file; a YAML error fails with the file and the parser's message. */
function documents(file: string): unknown[] {
  return parseAllDocuments(readFileSync(path.join(K8S, file), 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS();
  });
}

const files = yamlFiles();
const kustomizationFiles = files.filter((f) => path.posix.basename(f) === 'kustomization.yaml');
const kustomizations = new Map(kustomizationFiles.map((f) => [f, documents(f)[0] as Kustomization]));
/** Strategic-merge patch files named by the overlays: partial objects, checked against their target only. */
const patchFiles = new Set(
  [...kustomizations].flatMap(([file, k]) =>
    (k.patches ?? []).filter((p) => p.path).map((p) => path.posix.join(path.posix.dirname(file), p.path!)),
  ),
);
const loaded: Loaded[] = files
  .filter((f) => !kustomizations.has(f) && !patchFiles.has(f))
  .flatMap((file) => documents(file).map((object) => ({ file, object: object as K8sObject })));

function find<T>(kind: string, name: string): T & K8sObject {
  const hits = loaded.filter((l) => l.object.kind === kind && l.object.metadata?.name === name);
  expect(hits, `${kind}/${name}`).toHaveLength(1);
  return hits[0].object as T & K8sObject;
}

/** The schema check of each core kind (kubernetes-models: the Kubernetes OpenAPI schemas, compiled). */
const MODELS: Record<string, (data: unknown) => { validate(): void }> = {
  'v1/ConfigMap': (d) => new ConfigMap(d as IConfigMap),
  'v1/Secret': (d) => new Secret(d as ISecret),
  'v1/Service': (d) => new Service(d as IService),
  'v1/Namespace': (d) => new Namespace(d as INamespace),
  'apps/v1/Deployment': (d) => new Deployment(d as IDeployment),
  'batch/v1/Job': (d) => new Job(d as IJob),
  'autoscaling/v2/HorizontalPodAutoscaler': (d) => new HorizontalPodAutoscaler(d as IHorizontalPodAutoscaler),
  'policy/v1/PodDisruptionBudget': (d) => new PodDisruptionBudget(d as IPodDisruptionBudget),
  'networking.k8s.io/v1/Ingress': (d) => new Ingress(d as IIngress),
};
const CNPG = 'postgresql.cnpg.io/v1';

// The OpenAPI schemas accept unknown fields (the API server drops them), so a misspelt field would pass them: the
// fields of the objects that matter most are checked against the Kubernetes API reference's lists (v1.30).
const POD_SPEC_FIELDS = new Set([
  'activeDeadlineSeconds',
  'affinity',
  'automountServiceAccountToken',
  'containers',
  'dnsConfig',
  'dnsPolicy',
  'enableServiceLinks',
  'ephemeralContainers',
  'hostAliases',
  'hostIPC',
  'hostNetwork',
  'hostPID',
  'hostUsers',
  'hostname',
  'imagePullSecrets',
  'initContainers',
  'nodeName',
  'nodeSelector',
  'os',
  'overhead',
  'preemptionPolicy',
  'priority',
  'priorityClassName',
  'readinessGates',
  'resourceClaims',
  'restartPolicy',
  'runtimeClassName',
  'schedulerName',
  'schedulingGates',
  'securityContext',
  'serviceAccountName',
  'setHostnameAsFQDN',
  'shareProcessNamespace',
  'subdomain',
  'terminationGracePeriodSeconds',
  'tolerations',
  'topologySpreadConstraints',
  'volumes',
]);
const CONTAINER_FIELDS = new Set([
  'args',
  'command',
  'env',
  'envFrom',
  'image',
  'imagePullPolicy',
  'lifecycle',
  'livenessProbe',
  'name',
  'ports',
  'readinessProbe',
  'resizePolicy',
  'resources',
  'restartPolicy',
  'securityContext',
  'startupProbe',
  'stdin',
  'stdinOnce',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'tty',
  'volumeDevices',
  'volumeMounts',
  'workingDir',
]);
const PROBE_FIELDS = new Set([
  'exec',
  'failureThreshold',
  'grpc',
  'httpGet',
  'initialDelaySeconds',
  'periodSeconds',
  'successThreshold',
  'tcpSocket',
  'terminationGracePeriodSeconds',
  'timeoutSeconds',
]);
const SECURITY_CONTEXT_FIELDS = new Set([
  'allowPrivilegeEscalation',
  'appArmorProfile',
  'capabilities',
  'privileged',
  'procMount',
  'readOnlyRootFilesystem',
  'runAsGroup',
  'runAsNonRoot',
  'runAsUser',
  'seLinuxOptions',
  'seccompProfile',
  'windowsOptions',
]);

function unknownFields(object: object, known: Set<string>): string[] {
  return Object.keys(object).filter((k) => !known.has(k));
}

function podSpecOf(object: K8sObject): PodSpec | undefined {
  const spec = object.spec as { template?: { spec?: PodSpec } } | undefined;
  return spec?.template?.spec;
}

const webDeployment = () => find<IDeployment>('Deployment', 'chamspy-web');
const webContainer = () => webDeployment().spec!.template.spec!.containers[0];
const envOf = (container: Container, name: string) => container.env?.find((e) => e.name === name)?.value;

describe('deploy/k8s: files', () => {
  it('has a base and the staging and production overlays', () => {
    for (const dir of ['base', 'overlays/staging', 'overlays/production'])
      expect(kustomizationFiles).toContain(`${dir}/kustomization.yaml`);
  });

  it('parses every YAML file, each object with apiVersion, kind and a name', () => {
    expect(files.length).toBeGreaterThan(10);
    for (const { file, object } of loaded) {
      expect(object.apiVersion, file).toMatch(/^[\w.-]+(\/[\w.-]+)?$/);
      expect(object.kind, file).toMatch(/^[A-Z]\w+$/);
      expect(object.metadata?.name, file).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
  });

  it("every kustomization's resources, patches and generator files exist; every manifest is listed", () => {
    const listed = new Set<string>();
    for (const [file, k] of kustomizations) {
      const dir = path.posix.dirname(file);
      for (const resource of k.resources ?? []) {
        const target = path.join(K8S, dir, resource);
        expect(existsSync(target), `${file}: resource ${resource}`).toBe(true);
        if (statSync(target).isDirectory())
          expect(existsSync(path.join(target, 'kustomization.yaml')), `${file}: ${resource} is no kustomization`).toBe(
            true,
          );
        else listed.add(path.posix.join(dir, resource));
      }
      for (const patch of k.patches ?? []) {
        if (patch.path) expect(existsSync(path.join(K8S, dir, patch.path)), `${file}: patch ${patch.path}`).toBe(true);
        else expect(patch.patch && patch.target?.kind, `${file}: an inline patch needs a target`).toBeTruthy();
      }
      // The Secrets' inputs are git-ignored, each with a committed .example beside it; a ConfigMap's are committed.
      for (const generator of k.secretGenerator ?? []) {
        for (const input of [...(generator.envs ?? []), ...(generator.files ?? [])]) {
          const inputPath = path.posix.join('deploy/k8s', dir, input);
          expect(existsSync(path.join(ROOT, `${inputPath}.example`)), `${inputPath}.example`).toBe(true);
          expect(gitIgnored(inputPath), `${inputPath} must be git-ignored`).toBe(true);
        }
      }
      for (const generator of k.configMapGenerator ?? [])
        for (const input of [...(generator.envs ?? []), ...(generator.files ?? [])])
          expect(existsSync(path.join(K8S, dir, input)), `${file}: ${input}`).toBe(true);
    }
    for (const { file } of loaded) expect(listed, `${file} is in no kustomization`).toContain(file);
  });

  it("each patch file targets an object of the base, and each inline patch's target exists", () => {
    for (const file of patchFiles) {
      for (const patch of documents(file) as K8sObject[]) {
        expect(
          loaded.some((l) => l.object.kind === patch.kind && l.object.metadata?.name === patch.metadata?.name),
          file,
        ).toBe(true);
      }
    }
    for (const [file, k] of kustomizations) {
      for (const { target } of (k.patches ?? []).filter((p) => p.target)) {
        expect(
          loaded.some(
            (l) => l.object.kind === target!.kind && (!target!.name || l.object.metadata?.name === target!.name),
          ),
          `${file}: patch target ${target!.kind}/${target!.name ?? '*'}`,
        ).toBe(true);
      }
    }
  });

  it('the base sets no namespace (the overlays do) and labels every object with its component', () => {
    for (const { file, object } of loaded) {
      expect(object.metadata?.namespace, file).toBeUndefined();
      expect(object.metadata?.labels?.['app.kubernetes.io/name'], file).toBe('chamspy');
      expect(object.metadata?.labels?.['app.kubernetes.io/component'], file).toMatch(
        /^(config|database|migration|web|worker|broker)$/,
      );
    }
    for (const overlay of ['overlays/staging', 'overlays/production'])
      expect(parse(readFileSync(path.join(K8S, overlay, 'kustomization.yaml'), 'utf8')).namespace, overlay).toMatch(
        /^chamspy/,
      );
  });
});

describe('deploy/k8s: schemas', () => {
  it('validates every core object against the Kubernetes schemas', () => {
    for (const { file, object } of loaded) {
      if (object.apiVersion === CNPG) continue;
      const model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(model, `${file}: no schema for ${object.apiVersion} ${object.kind}`).toBeDefined();
      expect(() => model(object).validate(), `${file}: ${object.kind}/${object.metadata?.name}`).not.toThrow();
    }
  });

  it('uses no field the Kubernetes API does not know in pod specs, containers, probes and security contexts', () => {
    for (const { file, object } of loaded) {
      const pod = podSpecOf(object);
      if (!pod) continue;
      expect(unknownFields(pod, POD_SPEC_FIELDS), file).toEqual([]);
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(unknownFields(container, CONTAINER_FIELDS), `${file}: ${container.name}`).toEqual([]);
        for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe])
          if (probe) expect(unknownFields(probe, PROBE_FIELDS), `${file}: ${container.name}`).toEqual([]);
        if (container.securityContext)
          expect(unknownFields(container.securityContext, SECURITY_CONTEXT_FIELDS), file).toEqual([]);
      }
    }
  });

  it('the CloudNativePG Cluster has the fields CloudNativePG requires and three instances', () => {
    const clusters = loaded.filter((l) => l.object.kind === 'Cluster');
    expect(clusters).toHaveLength(1);
    const cluster = clusters[0].object as CnpgCluster & K8sObject;
    expect(cluster.apiVersion).toBe(CNPG);
    expect(cluster.spec.instances).toBe(3);
    expect(cluster.spec.storage?.size).toMatch(/^\d+(Mi|Gi|Ti)$/);
    expect(cluster.spec.imageName).toMatch(/^ghcr\.io\/cloudnative-pg\/postgresql:17(\.\d+)?/);
    const initdb = cluster.spec.bootstrap?.initdb;
    expect(initdb?.database).toBe('app');
    expect(initdb?.owner).toMatch(/^\w+$/);
    expect(initdb?.secret?.name).toBeTruthy();
    // The app's role: a login that owns nothing (docs/deploy.md, "The database roles").
    const app = cluster.spec.managed?.roles?.find((r) => r.name === 'chamspy_app');
    expect(app).toMatchObject({
      ensure: 'present',
      login: true,
      superuser: false,
      passwordSecret: { name: expect.any(String) },
    });
  });

  it('the Pooler is PgBouncer in transaction mode on that Cluster, its name unlike any Cluster', () => {
    const poolers = loaded.filter((l) => l.object.kind === 'Pooler');
    expect(poolers).toHaveLength(1);
    const pooler = poolers[0].object as CnpgPooler & K8sObject;
    expect(pooler.apiVersion).toBe(CNPG);
    expect(pooler.spec.cluster.name).toBe('chamspy-db');
    find<CnpgCluster>('Cluster', pooler.spec.cluster.name);
    expect(pooler.metadata?.name).not.toBe(pooler.spec.cluster.name);
    expect(pooler.spec.type ?? 'rw').toBe('rw');
    expect(pooler.spec.pgbouncer.poolMode).toBe('transaction');
    for (const value of Object.values(pooler.spec.pgbouncer.parameters ?? {})) expect(typeof value).toBe('string');
  });
});

describe('deploy/k8s: the web pods', () => {
  it('runs the app image with its start command on port 3000, as compose.yaml does', () => {
    const container = webContainer();
    expect(container.image).toBe('chamspy-app');
    expect(container.command).toEqual(['node', 'scripts/start.mjs']);
    expect(dockerfileCmd('app')).toEqual(container.command);
    expect(container.ports?.find((p) => p.name === 'http')?.containerPort).toBe(3000);
    expect(envOf(container, 'PORT')).toBe('3000');
  });

  it('probes liveness and readiness on their own health paths, with a startup probe and no preStop hook', () => {
    const container = webContainer();
    expect(container.livenessProbe?.httpGet?.path).toBe('/api_f/v1/health/live');
    expect(container.readinessProbe?.httpGet?.path).toBe('/api_f/v1/health/ready');
    expect(container.startupProbe?.httpGet?.path).toBeTruthy();
    expect(container.lifecycle?.preStop).toBeUndefined();
    expect(webDeployment().spec!.template.spec!.terminationGracePeriodSeconds).toBe(60);
  });

  it('runs as non-root on a read-only root file system, with resources', () => {
    for (const name of ['chamspy-web', 'chamspy-worker', 'chamspy-redis']) {
      const pod = find<IDeployment>('Deployment', name).spec!.template.spec!;
      expect(pod.securityContext?.runAsNonRoot, name).toBe(true);
      expect(pod.securityContext?.runAsUser, name).toBeGreaterThan(0);
      for (const container of pod.containers) {
        expect(container.securityContext?.readOnlyRootFilesystem, name).toBe(true);
        expect(container.securityContext?.allowPrivilegeEscalation, name).toBe(false);
        expect(container.resources?.requests?.cpu, name).toBeTruthy();
        expect(container.resources?.limits?.memory, name).toBeTruthy();
      }
    }
  });

  it('leaves the replica count to the autoscaler, which scales on CPU and on live_streams_open', () => {
    expect(webDeployment().spec!.replicas).toBeUndefined();
    const hpa = find<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', 'chamspy-web');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec!.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'chamspy-web' });
    const metrics = hpa.spec!.metrics ?? [];
    expect(metrics.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu')).toBe(true);
    expect(metrics.find((m) => m.type === 'Pods')?.pods?.metric.name).toBe('live_streams_open');
    expect(readFileSync(path.join(K8S, 'base/web-hpa.yaml'), 'utf8')).toMatch(/prometheus-adapter[\s\S]*KEDA/);
  });

  it('the Service, the PodDisruptionBudget and the Ingress reach the web pods', () => {
    const labels = webDeployment().spec!.template.metadata!.labels!;
    const selects = (selector: Record<string, string> | undefined) =>
      Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v) && Object.keys(selector ?? {}).length > 0;
    const service = find<IService>('Service', 'chamspy-web');
    expect(selects(service.spec!.selector)).toBe(true);
    expect(webContainer().ports!.map((p) => p.name)).toContain(service.spec!.ports![0].targetPort);
    expect(selects(find<IPodDisruptionBudget>('PodDisruptionBudget', 'chamspy-web').spec!.selector!.matchLabels)).toBe(
      true,
    );
    for (const ingress of loaded
      .filter((l) => l.object.kind === 'Ingress')
      .map((l) => l.object as IIngress & K8sObject)) {
      for (const rule of ingress.spec!.rules!)
        for (const p of rule.http!.paths) {
          expect(p.backend.service?.name).toBe('chamspy-web');
          expect(service.spec!.ports!.map((port) => port.name)).toContain(p.backend.service?.port?.name);
        }
    }
  });

  it('the Ingress streams without buffering, above the 15 s keep-alive, with the API body limit', () => {
    const annotations = find<IIngress>('Ingress', 'chamspy-web').metadata!.annotations!;
    expect(annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThan(15);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThan(15);
    expect(annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('1m');
    expect(readFileSync(path.join(ROOT, 'server/api/app.ts'), 'utf8')).toContain('BODY_LIMIT_BYTES = 1024 * 1024');
  });
});

describe('deploy/k8s: database URLs, worker and migrations', () => {
  const owner = () => find<CnpgCluster>('Cluster', 'chamspy-db').spec.bootstrap!.initdb!.owner!;

  it('the app reaches PostgreSQL through the pooler, and its LISTEN directly through the -rw service', () => {
    const container = webContainer();
    expect(envOf(container, 'DATABASE_URL')).toMatch(
      /^postgres:\/\/chamspy_app:\$\(APP_DB_PASSWORD\)@chamspy-db-pooler-rw:5432\/app$/,
    );
    expect(envOf(container, 'DATABASE_SESSION_URL')).toMatch(/@chamspy-db-rw:5432\/app$/);
    const worker = find<IDeployment>('Deployment', 'chamspy-worker').spec!.template.spec!.containers[0];
    expect(envOf(worker, 'DATABASE_URL')).toMatch(/@chamspy-db-pooler-rw:5432\/app$/);
  });

  it("the web pods reach the live broker's Redis through its Service (REDIS_URL)", () => {
    const config = find<IConfigMap>('ConfigMap', 'chamspy-config');
    const url = new URL(config.data!.REDIS_URL);
    const service = find<IService>('Service', url.hostname);
    expect(url.protocol).toBe('redis:');
    expect(service.spec!.ports!.map((p) => String(p.port))).toContain(url.port);
    const pod = find<IDeployment>('Deployment', 'chamspy-redis').spec!.template;
    expect(Object.entries(service.spec!.selector!).every(([k, v]) => pod.metadata!.labels![k] === v)).toBe(true);
    expect(pod.spec!.containers[0].ports!.map((p) => p.name)).toContain(service.spec!.ports![0].targetPort);
  });

  it("the migration Job runs compose.yaml's migrate command as the owner on the -rw service", () => {
    const compose = parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command?: string[] }>;
    };
    const job = find<IJob>('Job', 'chamspy-migrate');
    const container = job.spec!.template.spec!.containers[0];
    expect(container.image).toBe('chamspy-worker');
    expect(container.command).toEqual(compose.services.migrate.command);
    expect(job.spec!.template.spec!.restartPolicy).toBe('Never');
    expect(envOf(container, 'MIGRATION_DATABASE_URL')).toMatch(
      new RegExp(`^postgres://${owner()}:\\$\\(\\w+\\)@chamspy-db-rw:5432/app$`),
    );
    expect(envOf(container, 'DATABASE_URL')).toMatch(/^postgres:\/\/chamspy_app:/);
    // Only the Job holds the owner's password.
    for (const name of ['chamspy-web', 'chamspy-worker'])
      expect(JSON.stringify(find<IDeployment>('Deployment', name).spec)).not.toContain('chamspy-db-owner');
  });

  it("the worker runs its image's command with one replica and metrics on 9464", () => {
    const worker = find<IDeployment>('Deployment', 'chamspy-worker');
    const container = worker.spec!.template.spec!.containers[0];
    expect(worker.spec!.replicas).toBe(1);
    expect(container.image).toBe('chamspy-worker');
    expect(container.command).toEqual(dockerfileCmd('worker'));
    expect(envOf(container, 'METRICS_PORT')).toBe('9464');
    expect(container.ports?.find((p) => p.name === 'metrics')?.containerPort).toBe(9464);
  });

  it('every $(VAR) in an env value names a variable defined before it in the same container', () => {
    for (const { file, object } of loaded) {
      for (const container of podSpecOf(object)?.containers ?? []) {
        const defined = new Set<string>();
        for (const entry of container.env ?? []) {
          for (const [, name] of (entry.value ?? '').matchAll(/\$\((\w+)\)/g))
            expect(defined.has(name), `${file}: ${container.name} ${entry.name} uses $(${name})`).toBe(true);
          defined.add(entry.name);
        }
      }
    }
  });
});

/** The settings of .env.example that are secrets: in the overlays' Secrets, or built from them (the database URLs). */
const SECRET_SETTINGS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'TWILIO_AUTH_TOKEN',
  'SMTP_URL',
  'METRICS_TOKEN',
  'META_CAPI_TOKEN',
  'HIBP_API_KEY',
  'DATABASE_URL',
  'MIGRATION_DATABASE_URL',
  'DATABASE_SESSION_URL',
];

describe('deploy/k8s: settings and secrets', () => {
  const settings = new Set(
    readFileSync(path.join(ROOT, '.env.example'), 'utf8')
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
      .filter(Boolean),
  );

  it('the ConfigMap holds settings of .env.example only, none of them secret', () => {
    const configs = loaded.filter((l) => l.object.kind === 'ConfigMap').map((l) => l.object as IConfigMap);
    const patched = [...patchFiles].flatMap((f) => documents(f) as IConfigMap[]).filter((o) => o.kind === 'ConfigMap');
    for (const config of [...configs, ...patched]) {
      for (const key of Object.keys(config.data ?? {})) {
        expect(settings, key).toContain(key);
        expect(SECRET_SETTINGS, `${key}: a secret setting belongs in a Secret`).not.toContain(key);
      }
    }
  });

  it("the app's Secret input lists exactly the secret settings, each a setting of .env.example", () => {
    for (const overlay of ['overlays/staging', 'overlays/production']) {
      const keys = readFileSync(path.join(K8S, overlay, 'secrets/app.env.example'), 'utf8')
        .split('\n')
        .map((line) => /^(\w+)=/.exec(line)?.[1])
        .filter(Boolean);
      for (const key of keys) expect(settings, `${overlay}: ${key}`).toContain(key);
      expect(new Set(keys), overlay).toEqual(
        new Set(SECRET_SETTINGS.filter((k) => !/DATABASE_(SESSION_)?URL$/.test(k))),
      );
    }
  });

  it('no committed file holds a real-looking secret; the Secrets come from git-ignored files', () => {
    expect(loaded.filter((l) => l.object.kind === 'Secret').map((l) => l.file)).toEqual([]);
    const committed = (readdirSync(K8S, { recursive: true }) as string[])
      .map((f) => path.posix.join('deploy/k8s', f.split(path.sep).join('/')))
      .filter((f) => statSync(path.join(ROOT, f)).isFile() && !gitIgnored(f));
    const realLooking = [
      /\b(sk|rk)_(live|test)_[A-Za-z0-9]{6,}/,
      /\bwhsec_[A-Za-z0-9]{6,}/,
      /\bAC[0-9a-fA-F]{32}\b/,
      /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
      /\b[a-z]+:\/\/[^\s:/@]+:(?!\$\(|PASSWORD@)[^\s@]+@/, // a password written into a URL
    ];
    for (const file of committed) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const pattern of realLooking) expect(text, `${file} matches ${pattern}`).not.toMatch(pattern);
      if (file.endsWith('.env.example')) {
        for (const line of text.split('\n').filter((l) => /^\w+=/.test(l))) {
          const [key, value] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
          if (key === 'username') expect(value, file).toMatch(/^chamspy_\w+$/);
          else expect(value === '' || /^REPLACE_/.test(value), `${file}: ${key} must be a placeholder`).toBe(true);
        }
      }
    }
  });
});

/** Whether git ignores `file` (relative to the repository), as it must the Secrets' inputs. */
function gitIgnored(file: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', file], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The JSON-form CMD of the Dockerfile's stage `stage`. */
function dockerfileCmd(stage: string): string[] {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const body = dockerfile.split(/^FROM /m).find((s) => new RegExp(`\\bAS ${stage}\\s*$`, 'm').test(s.split('\n')[0]));
  const cmd = body && /^CMD (\[.*\])\s*$/m.exec(body);
  if (!cmd) throw new Error(`no CMD in the Dockerfile's ${stage} stage`);
  return JSON.parse(cmd[1]) as string[];
}
