package sandbox

import "testing"

// The guard's cost per message: a find, an aggregate with a sub-pipeline,
// and an insert of 1,000 documents sent as a document sequence, as the
// driver sends insertMany.
func BenchmarkGuardCheckMessage(b *testing.B) {
	find := opMsg(1, 0, mustMarshal(b, cmdOn("schemalab_x", e("find", "c"), e("filter", D{e("a", D{e("$gt", 5)})}), e("limit", 20))))
	agg := opMsg(1, 0, mustMarshal(b, cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{
		D{e("$match", D{e("a", 1)})},
		D{e("$lookup", D{e("from", "d"), e("pipeline", A{D{e("$match", D{})}}), e("as", "x")})},
		D{e("$group", D{e("_id", "$a"), e("n", D{e("$sum", 1)})})},
	}), e("cursor", D{}))))
	var docs [][]byte
	for i := range 1000 {
		docs = append(docs, mustMarshal(b, D{e("_id", i), e("sensorId", i%100), e("temperature", 20.5), e("status", "ok")}))
	}
	insert := opMsg(1, 0, mustMarshal(b, cmdOn("schemalab_x", e("insert", "readings"), e("ordered", true))), seq{"documents", docs})
	p := policy{prefix: "schemalab_"}
	for _, bc := range []struct {
		name string
		msg  []byte
	}{{"find", find}, {"aggregate", agg}, {"insert1000", insert}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.msg)))
			for b.Loop() {
				if reply, err := p.checkMessage(bc.msg); reply != nil || err != nil {
					b.Fatal("refused")
				}
			}
		})
	}
}
