package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// refuseTransactionNumber is what mongod's initializeOperationSessionInfo
// does with a command's session fields on a standalone server, which the
// embedded server is: a command carrying a txnNumber, as every command of
// a transaction does, is refused, so that a transaction fails here as it
// fails on a standalone mongod instead of applying its writes one by one.
// (Drivers send no txnNumber for retryable writes to a standalone.) An
// unknown command keeps its CommandNotFound, which mongod reports first;
// commitTransaction and abortTransaction are commands mongod knows. (The
// drivers always send an lsid with a txnNumber, so mongod's check for a
// txnNumber without one is left out.)
// c is the command's table entry, nil for an unknown one.
func refuseTransactionNumber(name string, c *command, cmd bson.D) error {
	if c == nil && name != "commitTransaction" && name != "abortTransaction" || c != nil && c.sessionFree {
		return nil
	}
	var hasTxn, hasAutocommit bool
	for _, f := range cmd[1:] {
		switch f.Key {
		case "txnNumber":
			hasTxn = true
		case "autocommit":
			hasAutocommit = true
		}
	}
	switch {
	case hasTxn:
		return mongoerr.New(mongoerr.IllegalOperation, "Transaction numbers are only allowed on a replica set member or mongos")
	case hasAutocommit:
		return mongoerr.New(mongoerr.InvalidOptions, "'autocommit' field requires a transaction number to also be specified")
	}
	return nil
}
