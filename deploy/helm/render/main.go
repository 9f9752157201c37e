// Command render renders a Helm chart the way `helm template` does, for CI where no helm binary
// can be installed (docs/adr/0009-chart-validation.md): Go's text/template with Sprig's functions
// (the library Helm uses, from Debian's golang-github-masterminds-sprig-dev) and Helm's own
// functions (include, tpl, required, toYaml, fromYaml, toJson), values merged as Helm merges them,
// missing keys rendered empty, documents ordered by Helm's install order.
//
//	render -chart deploy/helm/gatehouse -name gatehouse -namespace gatehouse [-f values.yaml]...
//
// Built with GOPATH=/usr/share/gocode GO111MODULE=off (Debian's Go packages; nothing downloaded).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	yaml "gopkg.in/yaml.v2"
)

type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(v string) error { *f = append(*f, v); return nil }

// Helm's InstallOrder (pkg/releaseutil/kind_sorter.go): the kinds this chart can render, in order.
var installOrder = []string{
	"PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
	"PodDisruptionBudget", "ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass",
	"PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole",
	"ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList", "RoleBinding",
	"RoleBindingList", "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
	"HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
}

// toYAML is Helm's toYaml: sigs.k8s.io/yaml (JSON, then YAML through yaml.v2), trailing newline cut.
func toYAML(v interface{}) string {
	j, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var obj interface{}
	if err := yaml.Unmarshal(j, &obj); err != nil {
		return ""
	}
	out, err := yaml.Marshal(obj)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(out), "\n")
}

func fromYAML(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func toJSON(v interface{}) string {
	out, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(out)
}

// normalize turns yaml.v2's map[interface{}]interface{} into map[string]interface{} (as Helm's values are).
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, val := range t {
			m[fmt.Sprint(k)] = normalize(val)
		}
		return m
	case map[string]interface{}:
		for k, val := range t {
			t[k] = normalize(val)
		}
		return t
	case []interface{}:
		for i, val := range t {
			t[i] = normalize(val)
		}
		return t
	}
	return v
}

// merge is Helm's coalescing of a values file over the defaults: maps merge, null deletes, the rest replaces.
func merge(dst, src map[string]interface{}) {
	for k, v := range src {
		if v == nil {
			delete(dst, k)
			continue
		}
		if sm, ok := v.(map[string]interface{}); ok {
			if dm, ok := dst[k].(map[string]interface{}); ok {
				merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

func readYAML(path string) map[string]interface{} {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	var raw interface{}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		fail(fmt.Errorf("%s: %w", path, err))
	}
	if raw == nil {
		return map[string]interface{}{}
	}
	m, ok := normalize(raw).(map[string]interface{})
	if !ok {
		fail(fmt.Errorf("%s: not a map", path))
	}
	return m
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "Error: %v\n", err)
	os.Exit(1)
}

func main() {
	chartDir := flag.String("chart", "", "chart folder")
	name := flag.String("name", "release-name", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	kubeVersion := flag.String("kube-version", "v1.33.0", "Capabilities.KubeVersion")
	notes := flag.Bool("notes", false, "print templates/NOTES.txt rendered, instead of the manifests")
	var valueFiles files
	flag.Var(&valueFiles, "f", "values file (repeatable)")
	flag.Parse()
	if *chartDir == "" {
		fail(fmt.Errorf("-chart is required"))
	}

	meta := readYAML(filepath.Join(*chartDir, "Chart.yaml"))
	chart := map[string]interface{}{}
	for k, v := range meta {
		chart[strings.ToUpper(k[:1])+k[1:]] = v
	}
	chartName := fmt.Sprint(meta["name"])
	values := readYAML(filepath.Join(*chartDir, "values.yaml"))
	for _, f := range valueFiles {
		merge(values, readYAML(f))
	}
	// Helm reads values through JSON (sigs.k8s.io/yaml): numbers are float64 in the templates.
	if j, err := json.Marshal(values); err != nil {
		fail(err)
	} else if err := json.Unmarshal(j, &values); err != nil {
		fail(err)
	}
	top := map[string]interface{}{
		"Values": values,
		"Chart":  chart,
		"Release": map[string]interface{}{
			"Name": *name, "Namespace": *namespace, "Service": "Helm", "IsInstall": true,
			"IsUpgrade": false, "Revision": 1,
		},
		"Capabilities": map[string]interface{}{
			"KubeVersion": map[string]interface{}{"Version": *kubeVersion, "GitVersion": *kubeVersion},
		},
	}

	root := template.New("gotpl")
	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	includedNames := map[string]int{}
	funcs["toYaml"] = toYAML
	funcs["fromYaml"] = fromYAML
	funcs["toJson"] = toJSON
	funcs["include"] = func(name string, data interface{}) (string, error) {
		if includedNames[name] > 1000 {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		includedNames[name]++
		var buf bytes.Buffer
		err := root.ExecuteTemplate(&buf, name, data)
		includedNames[name]--
		return buf.String(), err
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		err = t.Execute(&buf, data)
		return strings.ReplaceAll(buf.String(), "<no value>", ""), err
	}
	funcs["required"] = func(msg string, v interface{}) (interface{}, error) {
		if v == nil || fmt.Sprint(v) == "" {
			return v, fmt.Errorf("%s", msg)
		}
		return v, nil
	}
	funcs["fail"] = func(msg string) (string, error) { return "", fmt.Errorf("%s", msg) }
	root.Funcs(funcs).Option("missingkey=zero")

	templatesDir := filepath.Join(*chartDir, "templates")
	entries, err := os.ReadDir(templatesDir)
	if err != nil {
		fail(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(templatesDir, e.Name()))
		if err != nil {
			fail(err)
		}
		tplName := chartName + "/templates/" + e.Name()
		if _, err := root.New(tplName).Parse(string(data)); err != nil {
			fail(err)
		}
		if !strings.HasPrefix(e.Name(), "_") && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			names = append(names, tplName)
		}
	}
	sort.Strings(names)
	// NOTES.txt is rendered too (as helm does, so an error in it fails), and printed with -notes.
	notesName := chartName + "/templates/NOTES.txt"
	if root.Lookup(notesName) != nil {
		scope := map[string]interface{}{}
		for k, v := range top {
			scope[k] = v
		}
		scope["Template"] = map[string]interface{}{"Name": notesName, "BasePath": chartName + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, notesName, scope); err != nil {
			fail(err)
		}
		if *notes {
			os.Stdout.WriteString(strings.ReplaceAll(buf.String(), "<no value>", ""))
			return
		}
	}

	type doc struct {
		source, body, kind string
		order              int
	}
	var docs []doc
	for _, n := range names {
		scope := map[string]interface{}{}
		for k, v := range top {
			scope[k] = v
		}
		scope["Template"] = map[string]interface{}{"Name": n, "BasePath": chartName + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, n, scope); err != nil {
			fail(err)
		}
		out := strings.ReplaceAll(buf.String(), "<no value>", "")
		for _, part := range strings.Split("\n"+out, "\n---") {
			body := strings.TrimSpace(part)
			if body == "" {
				continue
			}
			var head struct {
				Kind string `yaml:"kind"`
			}
			if err := yaml.Unmarshal([]byte(body), &head); err != nil {
				fail(fmt.Errorf("%s: %w\n%s", n, err, body))
			}
			if head.Kind == "" {
				// Only comments: helm drops such a document too.
				continue
			}
			order := len(installOrder)
			for i, k := range installOrder {
				if k == head.Kind {
					order = i
				}
			}
			docs = append(docs, doc{source: n, body: body, kind: head.Kind, order: order})
		}
	}
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].order < docs[j].order })
	var out strings.Builder
	for _, d := range docs {
		fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", d.source, d.body)
	}
	os.Stdout.WriteString(out.String())
}
