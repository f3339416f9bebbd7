package update

import (
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// ClusterClock hands out the timestamps of mongod's cluster clock
// (VectorClockMutable::tickClusterTime): each tick is later than every
// earlier one, its seconds following the wall clock and its increment
// counting the ticks within a second. A Timestamp(0, 0) that a write
// stores takes one tick, so two writes a moment apart never store the
// same value. The zero value is ready to use; an engine has one.
type ClusterClock struct {
	mu   sync.Mutex
	last bson.Timestamp
}

// Tick is the next timestamp at the clock reading now.
func (c *ClusterClock) Tick(now bson.DateTime) bson.Timestamp {
	secs := uint32(int64(now) / 1000)
	c.mu.Lock()
	defer c.mu.Unlock()
	if secs > c.last.T {
		c.last = bson.Timestamp{T: secs, I: 1}
	} else {
		c.last.I++
	}
	return c.last
}

// clock is the clock the options name, or one of the update's own.
func (o Options) clock() *ClusterClock {
	if o.Clock != nil {
		return o.Clock
	}
	return &ClusterClock{}
}
