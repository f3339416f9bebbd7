package sandbox

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// writeCommands change the database they run on (or, run on admin, the
// server). Reads are absent: the policy keeps learners' writes inside the
// prefix, and `use` already keeps their current database there.
var writeCommands = map[string]bool{
	"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true,
	"drop": true, "dropDatabase": true, "create": true, "collMod": true,
	"createIndexes": true, "dropIndexes": true, "deleteIndexes": true, "reIndex": true, "compact": true,
	"convertToCapped": true, "cloneCollectionAsCapped": true,
	"createSearchIndexes": true, "dropSearchIndex": true, "updateSearchIndex": true,
	"createUser": true, "updateUser": true, "dropUser": true, "dropAllUsersFromDatabase": true,
	"grantRolesToUser": true, "revokeRolesFromUser": true, "createRole": true, "updateRole": true,
	"dropRole": true, "dropAllRolesFromDatabase": true, "grantPrivilegesToRole": true,
	"revokePrivilegesFromRole": true, "grantRolesToRole": true, "revokeRolesFromRole": true,
	"profile": true, "applyOps": true,
	// Server-wide commands run on admin, which CheckDB always refuses.
	"shutdown": true, "fsync": true, "fsyncUnlock": true, "setParameter": true,
	"setFeatureCompatibilityVersion": true, "setDefaultRWConcern": true, "killOp": true,
	"killAllSessions": true, "killAllSessionsByPattern": true, "killSessions": true,
	"replSetReconfig": true, "replSetStepDown": true, "replSetFreeze": true, "logRotate": true,
	"setClusterParameter": true, "enableSharding": true, "shardCollection": true,
}

// WriteTargets lists the databases command cmd, run on database db,
// writes to: db itself for a write command, and the databases named inside
// it (aggregate $out and $merge, mapReduce's out, renameCollection's
// namespaces, bulkWrite's nsInfo, applyOps' operations, explain's
// command). A read-only command yields none. The shell checks each with
// CheckDB before sending a command on a real server.
func WriteTargets(db string, cmd bson.D) []string {
	var out []string
	add := func(name string) {
		for _, have := range out {
			if have == name {
				return
			}
		}
		out = append(out, name)
	}
	collectTargets(db, cmd, add)
	return out
}

func collectTargets(db string, cmd bson.D, add func(string)) {
	if len(cmd) == 0 {
		return
	}
	name := cmd[0].Key
	switch name {
	case "aggregate":
		if p, ok := lookup(cmd, "pipeline").(bson.A); ok {
			pipelineTargets(db, p, add)
		}
		return
	case "explain":
		if inner, ok := cmd[0].Value.(bson.D); ok {
			collectTargets(db, inner, add)
		}
		return
	case "mapReduce", "mapreduce":
		switch out := lookup(cmd, "out").(type) {
		case string:
			add(db)
		case bson.D:
			if _, inline := lookupOK(out, "inline"); inline {
				return
			}
			if s, ok := lookup(out, "db").(string); ok {
				add(s)
			} else {
				add(db)
			}
		}
		return
	case "renameCollection":
		for _, key := range []string{"renameCollection", "to"} {
			if ns, ok := lookup(cmd, key).(string); ok {
				add(namespaceDB(ns))
			}
		}
		return
	case "bulkWrite":
		if infos, ok := lookup(cmd, "nsInfo").(bson.A); ok {
			for _, info := range infos {
				if d, ok := info.(bson.D); ok {
					if ns, ok := lookup(d, "ns").(string); ok {
						add(namespaceDB(ns))
					}
				}
			}
		}
		add(db)
		return
	case "applyOps":
		add(db)
		if ops, ok := cmd[0].Value.(bson.A); ok {
			for _, op := range ops {
				if d, ok := op.(bson.D); ok {
					if ns, ok := lookup(d, "ns").(string); ok {
						add(namespaceDB(ns))
					}
				}
			}
		}
		return
	}
	if writeCommands[name] {
		add(db)
	}
}

// pipelineTargets finds $out and $merge, also inside $facet, $lookup and
// $unionWith sub-pipelines (where MongoDB refuses them, but the server
// should be the one to say so only for databases of the sandbox).
func pipelineTargets(db string, pipeline bson.A, add func(string)) {
	for _, s := range pipeline {
		stage, ok := s.(bson.D)
		if !ok || len(stage) == 0 {
			continue
		}
		switch stage[0].Key {
		case "$out":
			switch spec := stage[0].Value.(type) {
			case string:
				add(db)
			case bson.D:
				if s, ok := lookup(spec, "db").(string); ok {
					add(s)
				} else {
					add(db)
				}
			}
		case "$merge":
			switch spec := stage[0].Value.(type) {
			case string:
				add(db)
			case bson.D:
				if into, ok := lookup(spec, "into").(bson.D); ok {
					if s, ok := lookup(into, "db").(string); ok {
						add(s)
						continue
					}
				}
				add(db)
			}
		case "$facet":
			if spec, ok := stage[0].Value.(bson.D); ok {
				for _, e := range spec {
					if p, ok := e.Value.(bson.A); ok {
						pipelineTargets(db, p, add)
					}
				}
			}
		case "$lookup", "$unionWith":
			if spec, ok := stage[0].Value.(bson.D); ok {
				if p, ok := lookup(spec, "pipeline").(bson.A); ok {
					pipelineTargets(db, p, add)
				}
			}
		}
	}
}

// CheckCommand applies CheckDB to every database cmd, run on db, writes
// to. Its method value fits a func(db string, cmd bson.D) error hook.
func (b *Backend) CheckCommand(db string, cmd bson.D) error {
	if b == nil || !b.Enforced() {
		return nil
	}
	for _, target := range WriteTargets(db, cmd) {
		if err := b.CheckDB(target); err != nil {
			return err
		}
	}
	return nil
}

func namespaceDB(ns string) string {
	db, _, _ := strings.Cut(ns, ".")
	return db
}

func lookup(d bson.D, key string) any {
	v, _ := lookupOK(d, key)
	return v
}

func lookupOK(d bson.D, key string) (any, bool) {
	for _, e := range d {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}
