package main

import "github.com/spf13/cobra"

func newTournamentCmd(a *app) *cobra.Command { return &cobra.Command{Use: "tournament"} }
