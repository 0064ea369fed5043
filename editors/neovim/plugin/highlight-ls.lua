-- Commands of highlight-ls. Nothing starts until require("highlight-ls").setup{} is called.
if vim.g.loaded_highlight_ls or vim.fn.has("nvim-0.7") ~= 1 then
  return
end
vim.g.loaded_highlight_ls = true

vim.api.nvim_create_user_command("HighlightLsRefresh", function()
  require("highlight-ls").refresh(0)
end, { desc = "Ask highlight-ls for this buffer's decorations again" })

vim.api.nvim_create_user_command("HighlightLsClear", function()
  require("highlight-ls").clear(0)
end, { desc = "Remove highlight-ls decorations from this buffer" })
